-- The tax codes the tax returns added to the documents engine's defaults (DEFAULT_TAX_CODES in
-- src/modules/documents/defaults.ts, after IRPF19A) for every company created before them. Same data
-- as there (documents/defaults.test.ts checks it); existing rows are left alone (ON CONFLICT DO NOTHING).
-- Ids are UUID v7 like the app's, shifted by the row's position so they list in the order given here.

CREATE FUNCTION pg_temp.tax_uuidv7(shift_ms integer) RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(
    set_bit(set_bit(
      overlay(uuid_send(gen_random_uuid())
        placing substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint + shift_ms) FROM 3)
        FROM 1 FOR 6),
      52, 1), 53, 1),
    'hex')::uuid
$$;
--> statement-breakpoint
INSERT INTO tax_codes (id, company_id, code, name, kind, rate, re_rate, operation, exemption_reason, irpf_kind, capital_goods)
SELECT pg_temp.tax_uuidv7(t.ord), c.id, t.code, t.name, t.kind, t.rate::numeric, t.re_rate::numeric,
       t.operation, t.exemption_reason, t.irpf_kind, t.capital_goods
  FROM companies c
 CROSS JOIN (VALUES
   (1, 'IVA10BI', 'IVA 10 % bienes de inversión', 'vat', '10', '1.4', 'domestic', NULL, NULL, true),
   (2, 'IVA4BI', 'IVA 4 % bienes de inversión', 'vat', '4', '0.5', 'domestic', NULL, NULL, true),
   (3, 'IC21BI', 'Adquisición intracomunitaria de bienes de inversión 21 %', 'vat', '21', '0', 'intra_eu_goods', NULL, NULL, true),
   (4, 'ICS10', 'Adquisición intracomunitaria de servicios 10 %', 'vat', '10', '0', 'intra_eu_services', NULL, NULL, false),
   (5, 'ICS4', 'Adquisición intracomunitaria de servicios 4 %', 'vat', '4', '0', 'intra_eu_services', NULL, NULL, false),
   (6, 'ISP10', 'Inversión del sujeto pasivo 10 %', 'vat', '10', '0', 'reverse_charge', NULL, NULL, false),
   (7, 'ISP4', 'Inversión del sujeto pasivo 4 %', 'vat', '4', '0', 'reverse_charge', NULL, NULL, false),
   (8, 'ISPEX21', 'Servicios de empresarios no establecidos (fuera de la UE) 21 %', 'vat', '21', '0', 'reverse_charge', NULL, NULL, false),
   (9, 'ISPEX10', 'Servicios de empresarios no establecidos (fuera de la UE) 10 %', 'vat', '10', '0', 'reverse_charge', NULL, NULL, false),
   (10, 'IMP21BI', 'Importación de bienes de inversión 21 %', 'vat', '21', '0', 'import', NULL, NULL, true),
   (11, 'EICS', 'Prestación intracomunitaria de servicios (no sujeta, art. 69 LIVA)', 'vat', '0', '0', 'not_subject', NULL, NULL, false),
   (12, 'IRPF15T', 'Retención IRPF rendimientos del trabajo 15 %', 'irpf', '15', '0', NULL, NULL, 'work', false)
 ) AS t(ord, code, name, kind, rate, re_rate, operation, exemption_reason, irpf_kind, capital_goods)
 ORDER BY c.id, t.ord
ON CONFLICT DO NOTHING;
--> statement-breakpoint
DROP FUNCTION pg_temp.tax_uuidv7(integer);
