CREATE TABLE "budget_concepts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"budget_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"long_text" text DEFAULT '' NOT NULL,
	"unit_price" numeric(18, 4) DEFAULT '0' NOT NULL,
	"type" text DEFAULT 'other' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "budget_concepts_kind_check" CHECK (kind in ('chapter', 'item')),
	CONSTRAINT "budget_concepts_type_check" CHECK (type in ('labour', 'machinery', 'material', 'other'))
);
--> statement-breakpoint
ALTER TABLE "budget_item_decomposition" DROP CONSTRAINT "budget_item_decomposition_item_id_budget_items_id_fk";
--> statement-breakpoint
DROP INDEX "budget_item_decomposition_item_idx";--> statement-breakpoint
DROP INDEX "budget_items_budget_code_key";--> statement-breakpoint
ALTER TABLE "budget_item_decomposition" ADD COLUMN "concept_id" uuid;--> statement-breakpoint
ALTER TABLE "budget_items" ADD COLUMN "concept_id" uuid;--> statement-breakpoint
-- Existing budgets: codes were unique per budget, so each item becomes its own concept (same id).
INSERT INTO "budget_concepts" ("id", "budget_id", "kind", "code", "unit", "summary", "long_text", "unit_price", "created_at", "updated_at")
  SELECT "id", "budget_id", "kind", "code", "unit", "summary", "long_text", "unit_price", "created_at", "updated_at" FROM "budget_items";--> statement-breakpoint
UPDATE "budget_items" SET "concept_id" = "id";--> statement-breakpoint
UPDATE "budget_item_decomposition" SET "concept_id" = "item_id";--> statement-breakpoint
ALTER TABLE "budget_item_decomposition" ALTER COLUMN "concept_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "budget_items" ALTER COLUMN "concept_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "budgets" ADD COLUMN "indirect_costs_pct" numeric(7, 2) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "budgets" ADD COLUMN "decimals" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "budget_concepts" ADD CONSTRAINT "budget_concepts_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "budget_concepts_budget_code_key" ON "budget_concepts" USING btree ("budget_id","code");--> statement-breakpoint
ALTER TABLE "budget_item_decomposition" ADD CONSTRAINT "budget_item_decomposition_concept_id_budget_concepts_id_fk" FOREIGN KEY ("concept_id") REFERENCES "public"."budget_concepts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_items" ADD CONSTRAINT "budget_items_concept_id_budget_concepts_id_fk" FOREIGN KEY ("concept_id") REFERENCES "public"."budget_concepts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "budget_item_decomposition_concept_idx" ON "budget_item_decomposition" USING btree ("concept_id","position");--> statement-breakpoint
CREATE INDEX "budget_items_concept_idx" ON "budget_items" USING btree ("concept_id");--> statement-breakpoint
ALTER TABLE "budget_item_decomposition" DROP COLUMN "item_id";