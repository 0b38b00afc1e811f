CREATE TABLE "tax_box_map" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"model" text NOT NULL,
	"tax_code_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"rectifying" boolean NOT NULL,
	"side" text NOT NULL,
	"base_box" text,
	"quota_box" text,
	"re_base_box" text,
	"re_quota_box" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_box_map_model_known" CHECK (model in ('303', '111', '115', '349')),
	CONSTRAINT "tax_box_map_side_known" CHECK (side in ('accrued', 'deductible'))
);
--> statement-breakpoint
CREATE TABLE "tax_return_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"return_id" uuid NOT NULL,
	"action" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tax_returns" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"model" text NOT NULL,
	"year" integer NOT NULL,
	"period" text NOT NULL,
	"date_from" date NOT NULL,
	"date_to" date NOT NULL,
	"estado" text DEFAULT 'borrador' NOT NULL,
	"declaration_kind" text DEFAULT 'ordinaria' NOT NULL,
	"previous_return_id" uuid,
	"previous_receipt" text,
	"boxes" jsonb NOT NULL,
	"manual_boxes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"records" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"declaration_type" text,
	"iban" text,
	"entry_id" uuid,
	"computed_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"confirmed_by" uuid,
	"presented_at" timestamp with time zone,
	"receipt" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tax_returns_model_known" CHECK (model in ('303', '390', '111', '115', '349')),
	CONSTRAINT "tax_returns_estado_known" CHECK (estado in ('borrador', 'confirmada', 'presentada')),
	CONSTRAINT "tax_returns_period_format" CHECK ("tax_returns"."period" ~ '^([1-4]T|0[1-9]|1[0-2]|0A)$'),
	CONSTRAINT "tax_returns_previous_kind" CHECK (("tax_returns"."declaration_kind" = 'ordinaria') = ("tax_returns"."previous_return_id" is null))
);
--> statement-breakpoint
ALTER TABLE "tax_box_map" ADD CONSTRAINT "tax_box_map_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_box_map" ADD CONSTRAINT "tax_box_map_tax_code_id_tax_codes_id_fk" FOREIGN KEY ("tax_code_id") REFERENCES "public"."tax_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_return_events" ADD CONSTRAINT "tax_return_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_return_events" ADD CONSTRAINT "tax_return_events_return_id_tax_returns_id_fk" FOREIGN KEY ("return_id") REFERENCES "public"."tax_returns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_returns" ADD CONSTRAINT "tax_returns_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tax_returns" ADD CONSTRAINT "tax_returns_previous_return_id_tax_returns_id_fk" FOREIGN KEY ("previous_return_id") REFERENCES "public"."tax_returns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tax_box_map_key" ON "tax_box_map" USING btree ("company_id","model","tax_code_id","direction","rectifying","side");--> statement-breakpoint
CREATE INDEX "tax_return_events_return_idx" ON "tax_return_events" USING btree ("return_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tax_returns_period_key" ON "tax_returns" USING btree ("company_id","model","year","period") WHERE "tax_returns"."previous_return_id" is null;--> statement-breakpoint
CREATE INDEX "tax_returns_lock_idx" ON "tax_returns" USING btree ("company_id","date_from") WHERE "tax_returns"."estado" <> 'borrador';