CREATE TABLE "api_access" (
	"token_id" uuid NOT NULL,
	"resource_name" text NOT NULL,
	CONSTRAINT "api_access_token_id_resource_name_pk" PRIMARY KEY("token_id","resource_name")
);
--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"user_id" uuid NOT NULL,
	"company_id" uuid,
	"active" boolean DEFAULT true NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"legal_name" text DEFAULT '' NOT NULL,
	"tax_id" text NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"postal_code" text DEFAULT '' NOT NULL,
	"province" text DEFAULT '' NOT NULL,
	"country" text DEFAULT 'ES' NOT NULL,
	"subaccount_length" integer DEFAULT 10 NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activities" (
	"id" uuid PRIMARY KEY NOT NULL,
	"budget_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"planned_start" date,
	"planned_end" date,
	"actual_start" date,
	"actual_end" date,
	"progress_pct" numeric(7, 2) DEFAULT '0' NOT NULL,
	"responsible_user_id" uuid,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "activities_estado_check" CHECK (estado in ('pendiente', 'en_curso', 'completada'))
);
--> statement-breakpoint
CREATE TABLE "activity_items" (
	"activity_id" uuid NOT NULL,
	"budget_item_id" uuid NOT NULL,
	CONSTRAINT "activity_items_activity_id_budget_item_id_pk" PRIMARY KEY("activity_id","budget_item_id")
);
--> statement-breakpoint
CREATE TABLE "budget_item_decomposition" (
	"id" uuid PRIMARY KEY NOT NULL,
	"item_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"type" text NOT NULL,
	"code" text NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"yield" numeric(18, 6) DEFAULT '1' NOT NULL,
	"price" numeric(18, 4) DEFAULT '0' NOT NULL,
	CONSTRAINT "budget_item_decomposition_type_check" CHECK (type in ('labour', 'machinery', 'material', 'other'))
);
--> statement-breakpoint
CREATE TABLE "budget_item_measurements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"item_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"units" numeric(18, 3),
	"length" numeric(18, 3),
	"width" numeric(18, 3),
	"height" numeric(18, 3)
);
--> statement-breakpoint
CREATE TABLE "budget_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"budget_id" uuid NOT NULL,
	"parent_id" uuid,
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"long_text" text DEFAULT '' NOT NULL,
	"quantity" numeric(18, 3) DEFAULT '0' NOT NULL,
	"unit_price" numeric(18, 4) DEFAULT '0' NOT NULL,
	"amount" numeric(18, 2) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budget_items_kind_check" CHECK (kind in ('chapter', 'item'))
);
--> statement-breakpoint
CREATE TABLE "budget_status_history" (
	"id" uuid PRIMARY KEY NOT NULL,
	"budget_id" uuid NOT NULL,
	"from_estado" text NOT NULL,
	"to_estado" text NOT NULL,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "budgets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"client_name" text DEFAULT '' NOT NULL,
	"client_tax_id" text,
	"description" text DEFAULT '' NOT NULL,
	"start_date" date,
	"end_date" date,
	"estado" text DEFAULT 'borrador' NOT NULL,
	"overheads_pct" numeric(7, 2) DEFAULT '13' NOT NULL,
	"profit_pct" numeric(7, 2) DEFAULT '6' NOT NULL,
	"discount_pct" numeric(7, 2) DEFAULT '0' NOT NULL,
	"vat_pct" numeric(7, 2) DEFAULT '21' NOT NULL,
	"retention_pct" numeric(7, 2) DEFAULT '5' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budgets_estado_check" CHECK (estado in ('borrador', 'aprobado', 'en_ejecucion', 'finalizado', 'cancelado'))
);
--> statement-breakpoint
CREATE TABLE "certification_lines" (
	"id" uuid PRIMARY KEY NOT NULL,
	"certification_id" uuid NOT NULL,
	"budget_item_id" uuid NOT NULL,
	"quantity_to_origin" numeric(18, 3) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certifications" (
	"id" uuid PRIMARY KEY NOT NULL,
	"budget_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"estado" text DEFAULT 'borrador' NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"created_by" uuid,
	"validated_by" uuid,
	"validated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "certifications_estado_check" CHECK (estado in ('borrador', 'emitida', 'validada', 'rechazada'))
);
--> statement-breakpoint
CREATE TABLE "cost_attachments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"cost_entry_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cost_entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"budget_id" uuid NOT NULL,
	"budget_item_id" uuid,
	"activity_id" uuid,
	"date" date NOT NULL,
	"category" text NOT NULL,
	"supplier_name" text DEFAULT '' NOT NULL,
	"supplier_tax_id" text,
	"document_number" text DEFAULT '' NOT NULL,
	"concept" text DEFAULT '' NOT NULL,
	"net_amount" numeric(18, 2) NOT NULL,
	"vat_amount" numeric(18, 2) DEFAULT '0' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cost_entries_category_check" CHECK (category in ('labour', 'machinery', 'material', 'subcontract', 'other'))
);
--> statement-breakpoint
ALTER TABLE "api_access" ADD CONSTRAINT "api_access_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_responsible_user_id_users_id_fk" FOREIGN KEY ("responsible_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_items" ADD CONSTRAINT "activity_items_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_items" ADD CONSTRAINT "activity_items_budget_item_id_budget_items_id_fk" FOREIGN KEY ("budget_item_id") REFERENCES "public"."budget_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_item_decomposition" ADD CONSTRAINT "budget_item_decomposition_item_id_budget_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."budget_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_item_measurements" ADD CONSTRAINT "budget_item_measurements_item_id_budget_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."budget_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_items" ADD CONSTRAINT "budget_items_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_items" ADD CONSTRAINT "budget_items_parent_id_budget_items_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."budget_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_status_history" ADD CONSTRAINT "budget_status_history_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_status_history" ADD CONSTRAINT "budget_status_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certification_lines" ADD CONSTRAINT "certification_lines_certification_id_certifications_id_fk" FOREIGN KEY ("certification_id") REFERENCES "public"."certifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certification_lines" ADD CONSTRAINT "certification_lines_budget_item_id_budget_items_id_fk" FOREIGN KEY ("budget_item_id") REFERENCES "public"."budget_items"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certifications" ADD CONSTRAINT "certifications_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certifications" ADD CONSTRAINT "certifications_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certifications" ADD CONSTRAINT "certifications_validated_by_users_id_fk" FOREIGN KEY ("validated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_attachments" ADD CONSTRAINT "cost_attachments_cost_entry_id_cost_entries_id_fk" FOREIGN KEY ("cost_entry_id") REFERENCES "public"."cost_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_attachments" ADD CONSTRAINT "cost_attachments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_entries" ADD CONSTRAINT "cost_entries_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_entries" ADD CONSTRAINT "cost_entries_budget_item_id_budget_items_id_fk" FOREIGN KEY ("budget_item_id") REFERENCES "public"."budget_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_entries" ADD CONSTRAINT "cost_entries_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cost_entries" ADD CONSTRAINT "cost_entries_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_key_hash_key" ON "api_tokens" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "api_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "companies_tax_id_key" ON "companies" USING btree ("tax_id");--> statement-breakpoint
CREATE UNIQUE INDEX "activities_budget_code_key" ON "activities" USING btree ("budget_id","code");--> statement-breakpoint
CREATE INDEX "activity_items_item_idx" ON "activity_items" USING btree ("budget_item_id");--> statement-breakpoint
CREATE INDEX "budget_item_decomposition_item_idx" ON "budget_item_decomposition" USING btree ("item_id","position");--> statement-breakpoint
CREATE INDEX "budget_item_measurements_item_idx" ON "budget_item_measurements" USING btree ("item_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "budget_items_budget_code_key" ON "budget_items" USING btree ("budget_id","code");--> statement-breakpoint
CREATE INDEX "budget_items_parent_idx" ON "budget_items" USING btree ("budget_id","parent_id","position");--> statement-breakpoint
CREATE INDEX "budget_status_history_budget_idx" ON "budget_status_history" USING btree ("budget_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "budgets_code_key" ON "budgets" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "certification_lines_cert_item_key" ON "certification_lines" USING btree ("certification_id","budget_item_id");--> statement-breakpoint
CREATE INDEX "certification_lines_item_idx" ON "certification_lines" USING btree ("budget_item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "certifications_budget_number_key" ON "certifications" USING btree ("budget_id","number");--> statement-breakpoint
CREATE INDEX "cost_attachments_entry_idx" ON "cost_attachments" USING btree ("cost_entry_id");--> statement-breakpoint
CREATE INDEX "cost_entries_budget_idx" ON "cost_entries" USING btree ("budget_id","date");--> statement-breakpoint
CREATE INDEX "cost_entries_item_idx" ON "cost_entries" USING btree ("budget_item_id");