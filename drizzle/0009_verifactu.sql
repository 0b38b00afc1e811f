CREATE TABLE "verifactu_chain_heads" (
	"company_id" uuid NOT NULL,
	"chain" text NOT NULL,
	"last_sequence" integer DEFAULT 0 NOT NULL,
	"last_id" uuid,
	"last_hash" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verifactu_chain_heads_company_id_chain_pk" PRIMARY KEY("company_id","chain"),
	CONSTRAINT "verifactu_chain_heads_chain_known" CHECK (chain in ('records', 'events'))
);
--> statement-breakpoint
CREATE TABLE "verifactu_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"kind" text NOT NULL,
	"event_type" text NOT NULL,
	"detail" jsonb NOT NULL,
	"producer_nif" text NOT NULL,
	"system_id" text NOT NULL,
	"version" text NOT NULL,
	"installation" text NOT NULL,
	"issuer_nif" text NOT NULL,
	"previous_hash" text NOT NULL,
	"generated_at" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verifactu_events_kind_known" CHECK (kind in ('start', 'stop', 'export', 'anomaly', 'verification'))
);
--> statement-breakpoint
CREATE TABLE "verifactu_queue" (
	"record_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"batch_id" uuid,
	"lease_until" timestamp with time zone,
	"code" text,
	"message" text,
	"csv" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verifactu_queue_estado_known" CHECK (estado in ('pendiente', 'enviando', 'aceptado', 'aceptado_con_errores', 'rechazado'))
);
--> statement-breakpoint
CREATE TABLE "verifactu_records" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"record_type" text NOT NULL,
	"document_id" uuid NOT NULL,
	"cancels_record_id" uuid,
	"issuer_nif" text NOT NULL,
	"invoice_number" text NOT NULL,
	"invoice_date" date NOT NULL,
	"invoice_type" text,
	"cuota_total" text,
	"importe_total" text,
	"previous_id" uuid,
	"previous_hash" text NOT NULL,
	"generated_at" text NOT NULL,
	"hash" text NOT NULL,
	"details" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verifactu_records_type_known" CHECK (record_type in ('alta', 'anulacion')),
	CONSTRAINT "verifactu_records_fields" CHECK (("verifactu_records"."record_type" = 'alta' and "verifactu_records"."invoice_type" is not null and "verifactu_records"."cuota_total" is not null
            and "verifactu_records"."importe_total" is not null and "verifactu_records"."cancels_record_id" is null)
        or ("verifactu_records"."record_type" = 'anulacion' and "verifactu_records"."invoice_type" is null and "verifactu_records"."cancels_record_id" is not null)),
	CONSTRAINT "verifactu_records_hash_format" CHECK ("verifactu_records"."hash" ~ '^[0-9A-F]{64}$')
);
--> statement-breakpoint
CREATE TABLE "verifactu_responses" (
	"id" uuid PRIMARY KEY NOT NULL,
	"record_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"batch_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"outcome" text NOT NULL,
	"code" text,
	"message" text,
	"csv" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verifactu_responses_outcome_known" CHECK (outcome in ('accepted', 'accepted_with_errors', 'rejected', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "verifactu_settings" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"mode" text DEFAULT 'off' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verifactu_settings_mode_known" CHECK (mode in ('off', 'verifactu'))
);
--> statement-breakpoint
ALTER TABLE "verifactu_chain_heads" ADD CONSTRAINT "verifactu_chain_heads_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifactu_events" ADD CONSTRAINT "verifactu_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifactu_queue" ADD CONSTRAINT "verifactu_queue_record_id_verifactu_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."verifactu_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifactu_queue" ADD CONSTRAINT "verifactu_queue_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifactu_records" ADD CONSTRAINT "verifactu_records_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifactu_records" ADD CONSTRAINT "verifactu_records_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifactu_records" ADD CONSTRAINT "verifactu_records_cancels_record_id_verifactu_records_id_fk" FOREIGN KEY ("cancels_record_id") REFERENCES "public"."verifactu_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifactu_records" ADD CONSTRAINT "verifactu_records_previous_id_verifactu_records_id_fk" FOREIGN KEY ("previous_id") REFERENCES "public"."verifactu_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifactu_responses" ADD CONSTRAINT "verifactu_responses_record_id_verifactu_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."verifactu_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifactu_responses" ADD CONSTRAINT "verifactu_responses_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifactu_settings" ADD CONSTRAINT "verifactu_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "verifactu_events_sequence_key" ON "verifactu_events" USING btree ("company_id","sequence");--> statement-breakpoint
CREATE INDEX "verifactu_queue_due_idx" ON "verifactu_queue" USING btree ("estado","next_attempt_at","company_id","sequence");--> statement-breakpoint
CREATE INDEX "verifactu_queue_batch_idx" ON "verifactu_queue" USING btree ("batch_id");--> statement-breakpoint
CREATE UNIQUE INDEX "verifactu_records_sequence_key" ON "verifactu_records" USING btree ("company_id","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "verifactu_records_cancels_key" ON "verifactu_records" USING btree ("cancels_record_id") WHERE "verifactu_records"."cancels_record_id" is not null;--> statement-breakpoint
CREATE INDEX "verifactu_records_document_idx" ON "verifactu_records" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "verifactu_records_date_idx" ON "verifactu_records" USING btree ("company_id","invoice_date");--> statement-breakpoint
CREATE INDEX "verifactu_responses_record_idx" ON "verifactu_responses" USING btree ("record_id","created_at");