-- The documents engine's defaults for every company created before it (later companies get them
-- from ensureDocumentDefaults in src/modules/documents/defaults.ts, in the transaction that creates
-- them). Same data as there (a test checks it); existing rows are left alone (ON CONFLICT DO NOTHING).
-- Ids are UUID v7 like the app's: a millisecond timestamp over a random UUID, version bits 0111. The
-- timestamp is shifted by the row's position so a company's rows list in the order given here.

CREATE FUNCTION pg_temp.documents_uuidv7(shift_ms integer) RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(
    set_bit(set_bit(
      overlay(uuid_send(gen_random_uuid())
        placing substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint + shift_ms) FROM 3)
        FROM 1 FOR 6),
      52, 1), 53, 1),
    'hex')::uuid
$$;
--> statement-breakpoint
INSERT INTO document_settings (company_id)
SELECT c.id FROM companies c
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO document_series (id, company_id, code, name, kind)
SELECT pg_temp.documents_uuidv7(s.ord), c.id, s.code, s.name, s.kind
  FROM companies c
 CROSS JOIN (VALUES
   (1, 'A', 'General', 'general'),
   (2, 'R', 'Rectificativas', 'rectifying'),
   (3, 'S', 'Simplificadas', 'simplified')
 ) AS s(ord, code, name, kind)
 ORDER BY c.id, s.ord
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO payment_terms (id, company_id, code, name, lines)
SELECT pg_temp.documents_uuidv7(p.ord), c.id, p.code, p.name, p.lines::jsonb
  FROM companies c
 CROSS JOIN (VALUES
   (1, 'CONTADO', 'Contado', '[{"kind":"balance","days":0}]'),
   (2, '30D', '30 días', '[{"kind":"balance","days":30}]')
 ) AS p(ord, code, name, lines)
 ORDER BY c.id, p.ord
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO tax_codes (id, company_id, code, name, kind, rate, re_rate, operation, exemption_reason, irpf_kind, capital_goods)
SELECT pg_temp.documents_uuidv7(t.ord), c.id, t.code, t.name, t.kind, t.rate::numeric, t.re_rate::numeric,
       t.operation, t.exemption_reason, t.irpf_kind, t.capital_goods
  FROM companies c
 CROSS JOIN (VALUES
   (1, 'IVA21', 'IVA 21 %', 'vat', '21', '5.2', 'domestic', NULL, NULL, false),
   (2, 'IVA10', 'IVA 10 %', 'vat', '10', '1.4', 'domestic', NULL, NULL, false),
   (3, 'IVA4', 'IVA 4 %', 'vat', '4', '0.5', 'domestic', NULL, NULL, false),
   (4, 'IVA0', 'IVA 0 %', 'vat', '0', '0', 'domestic', NULL, NULL, false),
   (5, 'EXENTO', 'Exento de IVA (art. 20 LIVA)', 'vat', '0', '0', 'exempt', 'E1', NULL, false),
   (6, 'IVA21BI', 'IVA 21 % bienes de inversión', 'vat', '21', '5.2', 'domestic', NULL, NULL, true),
   (7, 'IC21', 'Adquisición intracomunitaria de bienes 21 %', 'vat', '21', '0', 'intra_eu_goods', NULL, NULL, false),
   (8, 'IC10', 'Adquisición intracomunitaria de bienes 10 %', 'vat', '10', '0', 'intra_eu_goods', NULL, NULL, false),
   (9, 'IC4', 'Adquisición intracomunitaria de bienes 4 %', 'vat', '4', '0', 'intra_eu_goods', NULL, NULL, false),
   (10, 'ICS21', 'Adquisición intracomunitaria de servicios 21 %', 'vat', '21', '0', 'intra_eu_services', NULL, NULL, false),
   (11, 'ISP21', 'Inversión del sujeto pasivo 21 %', 'vat', '21', '0', 'reverse_charge', NULL, NULL, false),
   (12, 'IMP21', 'Importación 21 %', 'vat', '21', '0', 'import', NULL, NULL, false),
   (13, 'IMP10', 'Importación 10 %', 'vat', '10', '0', 'import', NULL, NULL, false),
   (14, 'IMP4', 'Importación 4 %', 'vat', '4', '0', 'import', NULL, NULL, false),
   (15, 'EXP', 'Exportación exenta (art. 21 LIVA)', 'vat', '0', '0', 'export', 'E2', NULL, false),
   (16, 'EIC', 'Entrega intracomunitaria exenta (art. 25 LIVA)', 'vat', '0', '0', 'exempt_intra_eu', 'E5', NULL, false),
   (17, 'NS', 'No sujeto a IVA', 'vat', '0', '0', 'not_subject', NULL, NULL, false),
   (18, 'IRPF1', 'Retención IRPF 1 %', 'irpf', '1', '0', NULL, NULL, 'activities', false),
   (19, 'IRPF2', 'Retención IRPF 2 %', 'irpf', '2', '0', NULL, NULL, 'activities', false),
   (20, 'IRPF7', 'Retención IRPF 7 %', 'irpf', '7', '0', NULL, NULL, 'activities', false),
   (21, 'IRPF15', 'Retención IRPF 15 %', 'irpf', '15', '0', NULL, NULL, 'activities', false),
   (22, 'IRPF19', 'Retención IRPF 19 %', 'irpf', '19', '0', NULL, NULL, 'activities', false),
   (23, 'IRPF21', 'Retención IRPF 21 %', 'irpf', '21', '0', NULL, NULL, 'activities', false),
   (24, 'IRPF19A', 'Retención arrendamientos 19 %', 'irpf', '19', '0', NULL, NULL, 'rent', false)
 ) AS t(ord, code, name, kind, rate, re_rate, operation, exemption_reason, irpf_kind, capital_goods)
 ORDER BY c.id, t.ord
ON CONFLICT DO NOTHING;
--> statement-breakpoint
DROP FUNCTION pg_temp.documents_uuidv7(integer);
