CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"fiscal_year_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"parent_code" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accounts_fiscal_year_code_key" UNIQUE("fiscal_year_id","code"),
	CONSTRAINT "accounts_code_digits" CHECK ("accounts"."code" ~ '^[0-9]{1,15}$')
);
--> statement-breakpoint
CREATE TABLE "ledger_daily_balances" (
	"subaccount_id" uuid NOT NULL,
	"date" date NOT NULL,
	"company_id" uuid NOT NULL,
	"fiscal_year_id" uuid NOT NULL,
	"debit" numeric(18, 2) DEFAULT '0' NOT NULL,
	"credit" numeric(18, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "ledger_daily_balances_subaccount_id_date_pk" PRIMARY KEY("subaccount_id","date")
);
--> statement-breakpoint
CREATE TABLE "entries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"fiscal_year_id" uuid NOT NULL,
	"journal_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"date" date NOT NULL,
	"concept" text NOT NULL,
	"total" numeric(18, 2) NOT NULL,
	"reversal_of" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "entries_fiscal_year_id_key" UNIQUE("fiscal_year_id","id"),
	CONSTRAINT "entries_number_positive" CHECK ("entries"."number" > 0),
	CONSTRAINT "entries_total_positive" CHECK ("entries"."total" > 0)
);
--> statement-breakpoint
CREATE TABLE "entry_lines" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"fiscal_year_id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"line_no" integer NOT NULL,
	"subaccount_id" uuid NOT NULL,
	"debit" numeric(18, 2) DEFAULT '0' NOT NULL,
	"credit" numeric(18, 2) DEFAULT '0' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	CONSTRAINT "entry_lines_one_side_positive" CHECK ("entry_lines"."debit" >= 0 and "entry_lines"."credit" >= 0 and ("entry_lines"."debit" > 0) <> ("entry_lines"."credit" > 0))
);
--> statement-breakpoint
CREATE TABLE "fiscal_years" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"code" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"estado" text DEFAULT 'abierto' NOT NULL,
	"last_entry_number" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fiscal_years_estado_known" CHECK ("fiscal_years"."estado" in ('abierto', 'cerrado')),
	CONSTRAINT "fiscal_years_dates_ordered" CHECK ("fiscal_years"."end_date" >= "fiscal_years"."start_date"),
	CONSTRAINT "fiscal_years_last_entry_number_positive" CHECK ("fiscal_years"."last_entry_number" >= 0)
);
--> statement-breakpoint
CREATE TABLE "journals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journals_type_known" CHECK ("journals"."type" in ('general', 'sales', 'purchases', 'bank'))
);
--> statement-breakpoint
CREATE TABLE "ledger_monthly_balances" (
	"subaccount_id" uuid NOT NULL,
	"month" date NOT NULL,
	"company_id" uuid NOT NULL,
	"fiscal_year_id" uuid NOT NULL,
	"debit" numeric(18, 2) DEFAULT '0' NOT NULL,
	"credit" numeric(18, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "ledger_monthly_balances_subaccount_id_month_pk" PRIMARY KEY("subaccount_id","month")
);
--> statement-breakpoint
CREATE TABLE "subaccounts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"fiscal_year_id" uuid NOT NULL,
	"account_code" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"contact_id" uuid,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subaccounts_fiscal_year_id_key" UNIQUE("fiscal_year_id","id"),
	CONSTRAINT "subaccounts_code_digits" CHECK ("subaccounts"."code" ~ '^[0-9]{4,15}$'),
	CONSTRAINT "subaccounts_code_under_account" CHECK (starts_with("subaccounts"."code", "subaccounts"."account_code"))
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"tax_id" text,
	"email" text DEFAULT '' NOT NULL,
	"commission_pct" numeric(7, 2) DEFAULT '0' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "agents_commission_pct_range" CHECK ("agents"."commission_pct" between 0 and 100)
);
--> statement-breakpoint
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
CREATE TABLE "contact_code_counters" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"last_value" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"contact_type" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"legal_name" text DEFAULT '' NOT NULL,
	"tax_id" text,
	"email" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"postal_code" text DEFAULT '' NOT NULL,
	"province" text DEFAULT '' NOT NULL,
	"country" text DEFAULT 'ES' NOT NULL,
	"payment_terms_days" integer DEFAULT 30 NOT NULL,
	"agent_id" uuid,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contacts_contact_type_known" CHECK ("contacts"."contact_type" in ('customer', 'supplier', 'both')),
	CONSTRAINT "contacts_payment_terms_range" CHECK ("contacts"."payment_terms_days" between 0 and 365)
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
CREATE TABLE "authz_epoch" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_audit" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"user_id" uuid,
	"success" boolean NOT NULL,
	"reason" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "permissions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"modulo" text NOT NULL,
	"accion" text NOT NULL,
	"submenu" text,
	"view" text
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"jti" uuid PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "revoked_access_tokens" (
	"jti" uuid PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role_permissions" (
	"role_id" uuid NOT NULL,
	"permission_id" uuid NOT NULL,
	CONSTRAINT "role_permissions_role_id_permission_id_pk" PRIMARY KEY("role_id","permission_id")
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"is_system" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"user_id" uuid NOT NULL,
	"role_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_roles_user_id_role_id_pk" PRIMARY KEY("user_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"full_name" text DEFAULT '' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"company_id" uuid,
	"password_changed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_families" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"description" text NOT NULL,
	"family_id" uuid,
	"sale_price" numeric(18, 2) DEFAULT '0' NOT NULL,
	"cost_price" numeric(18, 2) DEFAULT '0' NOT NULL,
	"vat_rate" text DEFAULT '21' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_prices_not_negative" CHECK ("products"."sale_price" >= 0 and "products"."cost_price" >= 0),
	CONSTRAINT "products_vat_rate_known" CHECK ("products"."vat_rate" in ('21', '10', '4', '0'))
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
CREATE TABLE "tenants" (
	"slug" text PRIMARY KEY NOT NULL,
	"database_url" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_fiscal_year_id_fiscal_years_id_fk" FOREIGN KEY ("fiscal_year_id") REFERENCES "public"."fiscal_years"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_daily_balances" ADD CONSTRAINT "ledger_daily_balances_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_fiscal_year_id_fiscal_years_id_fk" FOREIGN KEY ("fiscal_year_id") REFERENCES "public"."fiscal_years"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_journal_id_journals_id_fk" FOREIGN KEY ("journal_id") REFERENCES "public"."journals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entries" ADD CONSTRAINT "entries_reversal_of_entries_id_fk" FOREIGN KEY ("reversal_of") REFERENCES "public"."entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_lines" ADD CONSTRAINT "entry_lines_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_lines" ADD CONSTRAINT "entry_lines_entry_fk" FOREIGN KEY ("fiscal_year_id","entry_id") REFERENCES "public"."entries"("fiscal_year_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "entry_lines" ADD CONSTRAINT "entry_lines_subaccount_fk" FOREIGN KEY ("fiscal_year_id","subaccount_id") REFERENCES "public"."subaccounts"("fiscal_year_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fiscal_years" ADD CONSTRAINT "fiscal_years_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journals" ADD CONSTRAINT "journals_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_monthly_balances" ADD CONSTRAINT "ledger_monthly_balances_subaccount_id_subaccounts_id_fk" FOREIGN KEY ("subaccount_id") REFERENCES "public"."subaccounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subaccounts" ADD CONSTRAINT "subaccounts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subaccounts" ADD CONSTRAINT "subaccounts_fiscal_year_id_fiscal_years_id_fk" FOREIGN KEY ("fiscal_year_id") REFERENCES "public"."fiscal_years"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subaccounts" ADD CONSTRAINT "subaccounts_account_fk" FOREIGN KEY ("fiscal_year_id","account_code") REFERENCES "public"."accounts"("fiscal_year_id","code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_access" ADD CONSTRAINT "api_access_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_code_counters" ADD CONSTRAINT "contact_code_counters_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "login_audit" ADD CONSTRAINT "login_audit_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_permissions" ADD CONSTRAINT "role_permissions_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_permissions" ADD CONSTRAINT "role_permissions_permission_id_permissions_id_fk" FOREIGN KEY ("permission_id") REFERENCES "public"."permissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_families" ADD CONSTRAINT "product_families_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_family_id_product_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."product_families"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
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
CREATE INDEX "accounts_company_idx" ON "accounts" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "ledger_daily_balances_year_date_idx" ON "ledger_daily_balances" USING btree ("fiscal_year_id","date","subaccount_id","debit","credit");--> statement-breakpoint
CREATE UNIQUE INDEX "entries_fiscal_year_number_key" ON "entries" USING btree ("fiscal_year_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "entries_reversal_of_key" ON "entries" USING btree ("reversal_of");--> statement-breakpoint
CREATE INDEX "entries_company_date_idx" ON "entries" USING btree ("company_id","date","number","id");--> statement-breakpoint
CREATE INDEX "entries_fiscal_year_date_idx" ON "entries" USING btree ("fiscal_year_id","date","number","id");--> statement-breakpoint
CREATE INDEX "entries_date_idx" ON "entries" USING btree ("date","number","id");--> statement-breakpoint
CREATE INDEX "entries_journal_idx" ON "entries" USING btree ("journal_id");--> statement-breakpoint
CREATE UNIQUE INDEX "entry_lines_entry_line_key" ON "entry_lines" USING btree ("entry_id","line_no");--> statement-breakpoint
CREATE INDEX "entry_lines_subaccount_entry_idx" ON "entry_lines" USING btree ("subaccount_id","entry_id");--> statement-breakpoint
CREATE UNIQUE INDEX "fiscal_years_company_code_key" ON "fiscal_years" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "fiscal_years_company_start_idx" ON "fiscal_years" USING btree ("company_id","start_date");--> statement-breakpoint
CREATE UNIQUE INDEX "journals_company_code_key" ON "journals" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "journals_company_created_idx" ON "journals" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "ledger_monthly_balances_year_month_idx" ON "ledger_monthly_balances" USING btree ("fiscal_year_id","month","subaccount_id","debit","credit");--> statement-breakpoint
CREATE UNIQUE INDEX "subaccounts_fiscal_year_code_key" ON "subaccounts" USING btree ("fiscal_year_id","code");--> statement-breakpoint
CREATE INDEX "subaccounts_fiscal_year_contact_idx" ON "subaccounts" USING btree ("fiscal_year_id","contact_id") WHERE "subaccounts"."contact_id" is not null;--> statement-breakpoint
CREATE INDEX "subaccounts_company_idx" ON "subaccounts" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "agents_company_code_key" ON "agents" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "agents_company_created_idx" ON "agents" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_key_hash_key" ON "api_tokens" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "api_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_company_code_key" ON "contacts" USING btree ("company_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_company_tax_id_key" ON "contacts" USING btree ("company_id","tax_id") WHERE "contacts"."tax_id" is not null;--> statement-breakpoint
CREATE INDEX "contacts_company_created_idx" ON "contacts" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "contacts_agent_idx" ON "contacts" USING btree ("agent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "companies_tax_id_key" ON "companies" USING btree ("tax_id");--> statement-breakpoint
CREATE INDEX "login_audit_email_ip_time_idx" ON "login_audit" USING btree ("email","ip","created_at");--> statement-breakpoint
CREATE INDEX "login_audit_time_idx" ON "login_audit" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "permissions_modulo_accion_key" ON "permissions" USING btree ("modulo","accion");--> statement-breakpoint
CREATE INDEX "refresh_tokens_session_idx" ON "refresh_tokens" USING btree ("session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_name_key" ON "roles" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_roles_role_idx" ON "user_roles" USING btree ("role_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "product_families_company_code_key" ON "product_families" USING btree ("company_id","code");--> statement-breakpoint
CREATE INDEX "product_families_company_created_idx" ON "product_families" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_company_reference_key" ON "products" USING btree ("company_id","reference");--> statement-breakpoint
CREATE INDEX "products_company_created_idx" ON "products" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "products_family_idx" ON "products" USING btree ("family_id");--> statement-breakpoint
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