import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../../test/helpers/app.js";
import { inCtxTransaction } from "../../../platform/http/context.js";
import { serviceCtx } from "../../accounting/test-support.js";
import { entryLines, expectStatus, line } from "../../documents/test-support.js";
import { listOpenDues, payDue, undoPayment } from "../index.js";
import { approvedPurchaseInvoice, issuedSalesInvoice, treasuryFixture } from "../test-support.js";

let t: TestApp;
let fx: Awaited<ReturnType<typeof treasuryFixture>>;

beforeAll(async () => {
  t = await createTestApp();
  fx = await treasuryFixture(t);
});
afterAll(async () => {
  await t?.close();
});

const ctx = () => serviceCtx(t.ctx);

async function invoice(path: string, id: string) {
  return expectStatus<{ paid_amount: string; payment_status: string; dues: Array<Record<string, string>> }>(
    await t.as(t.adminToken, { method: "GET", url: `/api/${path}/${id}` }),
    200,
  );
}

describe("the payment core banking codes against", () => {
  it("lists the open dues, pays one partly then fully with the entries computed by hand, refuses over-payment", async () => {
    // 1 x 100 @ 21 % = 121.00, due in one instalment.
    const inv = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "100")]);
    const open = await listOpenDues(ctx(), { companyId: fx.companyId, direction: "sale" });
    const due = open.find((d) => d.documentId === inv.id)!;
    expect(due).toMatchObject({
      documentCode: inv.code,
      amount: "121.00",
      openAmount: "121.00",
      contactId: fx.customer.id,
      contactName: "Cliente Uno, S.L.",
      supplierNumber: null,
    });
    expect(due.contactTaxId).toBe(fx.customer.tax_id);

    const first = await payDue(ctx(), {
      dueId: due.id,
      date: "2026-03-20",
      amount: "50.00",
      bankAccountId: fx.bank.id,
      fees: "1.50",
    });
    const customerSub = (await entryLines(t, inv.entry_id)).find((l) => l.code.startsWith("430"))!.code;
    expect(await entryLines(t, first.entryId)).toEqual([
      { code: fx.bank.subaccount_code, debit: "48.50", credit: "0.00" },
      { code: "6260000000", debit: "1.50", credit: "0.00" },
      { code: customerSub, debit: "0.00", credit: "50.00" },
    ]);
    let doc = await invoice("sales/invoices", inv.id);
    // Partly paid, and its due date (the issue date) is past: vencida.
    expect(doc).toMatchObject({ paid_amount: "50.00", payment_status: "vencida" });
    expect(doc.dues[0]).toMatchObject({ paid_amount: "50.00", estado: "parcial" });
    const [partly] = await listOpenDues(ctx(), {
      companyId: fx.companyId,
      direction: "sale",
      dueIds: [due.id],
    });
    expect(partly.openAmount).toBe("71.00");

    const over = payDue(ctx(), {
      dueId: due.id,
      date: "2026-03-21",
      amount: "71.01",
      bankAccountId: fx.bank.id,
    });
    await expect(over).rejects.toMatchObject({ status: 409 });
    const negative = payDue(ctx(), {
      dueId: due.id,
      date: "2026-03-21",
      amount: "-1",
      bankAccountId: fx.bank.id,
    });
    await expect(negative).rejects.toMatchObject({ status: 400 });

    const rest = await payDue(ctx(), {
      dueId: due.id,
      date: "2026-03-25",
      amount: "71.00",
      bankAccountId: fx.bank.id,
    });
    expect(await entryLines(t, rest.entryId)).toEqual([
      { code: fx.bank.subaccount_code, debit: "71.00", credit: "0.00" },
      { code: customerSub, debit: "0.00", credit: "71.00" },
    ]);
    doc = await invoice("sales/invoices", inv.id);
    expect(doc).toMatchObject({ paid_amount: "121.00", payment_status: "pagada" });
    expect(doc.dues[0].estado).toBe("pagado");
    expect(
      await listOpenDues(ctx(), { companyId: fx.companyId, direction: "sale", dueIds: [due.id] }),
    ).toEqual([]);

    // Undo the last payment: its entry reversed, the amount open again.
    const undone = await undoPayment(ctx(), rest.paymentId);
    expect(undone.undoneAt).toBeInstanceOf(Date);
    expect(await entryLines(t, undone.reversalEntryId!)).toEqual([
      { code: fx.bank.subaccount_code, debit: "0.00", credit: "71.00" },
      { code: customerSub, debit: "71.00", credit: "0.00" },
    ]);
    doc = await invoice("sales/invoices", inv.id);
    expect(doc).toMatchObject({ paid_amount: "50.00" });
    expect(doc.dues[0]).toMatchObject({ paid_amount: "50.00", estado: "parcial" });
    await expect(undoPayment(ctx(), rest.paymentId)).rejects.toMatchObject({ status: 409 });
  });

  it("pays a supplier: Dr 400 / Cr 572 plus fees, with the supplier's number listed", async () => {
    const inv = await approvedPurchaseInvoice(t, fx.companyId, fx.supplier.id, [line("2", "50")]);
    const [due] = await listOpenDues(ctx(), { companyId: fx.companyId, direction: "purchase" });
    expect(due).toMatchObject({ documentId: inv.id, amount: "121.00", supplierNumber: inv.supplier_number });
    const paid = await payDue(ctx(), {
      dueId: due.id,
      date: "2026-04-01",
      amount: "121.00",
      bankAccountId: fx.bank.id,
      fees: "0.60",
    });
    const lines = await entryLines(t, paid.entryId);
    expect(lines).toEqual([
      { code: expect.stringMatching(/^400/), debit: "121.00", credit: "0.00" },
      { code: "6260000000", debit: "0.60", credit: "0.00" },
      { code: fx.bank.subaccount_code, debit: "0.00", credit: "121.60" },
    ]);
    const doc = await invoice("purchases/invoices", inv.id);
    expect(doc).toMatchObject({ paid_amount: "121.00", payment_status: "pagada" });
  });

  it("works inside the caller's transaction: a failure after it rolls the payment back", async () => {
    const inv = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "10")]);
    const [due] = await listOpenDues(ctx(), { companyId: fx.companyId, direction: "sale" }).then((r) =>
      r.filter((d) => d.documentId === inv.id),
    );
    await expect(
      inCtxTransaction(ctx(), async (tx) => {
        await payDue(tx, { dueId: due.id, date: "2026-03-20", amount: "12.10", bankAccountId: fx.bank.id });
        throw new Error("the caller fails after paying");
      }),
    ).rejects.toThrow("the caller fails");
    const [still] = await listOpenDues(ctx(), {
      companyId: fx.companyId,
      direction: "sale",
      dueIds: [due.id],
    });
    expect(still.openAmount).toBe("12.10");
    expect((await invoice("sales/invoices", inv.id)).paid_amount).toBe("0.00");
  });

  it("keeps a restricted caller to its company: another company's due or bank account is a 404", async () => {
    const inv = await issuedSalesInvoice(t, fx.companyId, fx.customer.id, [line("1", "20")]);
    const [due] = (await listOpenDues(ctx(), { companyId: fx.companyId, direction: "sale" })).filter(
      (d) => d.documentId === inv.id,
    );
    const otherCompany = "0190f2a4-0000-7000-8000-000000000001";
    const restricted = serviceCtx(t.ctx, otherCompany);
    expect(await listOpenDues(restricted, { companyId: fx.companyId, direction: "sale" })).toEqual([]);
    await expect(
      payDue(restricted, { dueId: due.id, date: "2026-03-20", amount: "1", bankAccountId: fx.bank.id }),
    ).rejects.toMatchObject({ status: 404 });
  });
});
