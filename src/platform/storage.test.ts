import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileStorage, InvalidStorageKeyError } from "./storage.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cuadra-storage-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("file storage", () => {
  it("saves a buffer under a generated key with its SHA-256, reads it back and deletes it", async () => {
    const storage = createFileStorage(dir);
    const content = Buffer.from("%PDF-1.4 some bytes \u00f1");
    const stored = await storage.save(content);

    expect(stored.key).toMatch(/^\d{4}\/\d{2}\/[0-9a-f-]{36}$/);
    expect(stored.sha256).toBe(createHash("sha256").update(content).digest("hex"));
    expect(stored.sizeBytes).toBe(content.length);
    expect(existsSync(join(dir, stored.key))).toBe(true);
    expect((await storage.read(stored.key)).equals(content)).toBe(true);

    await storage.remove(stored.key);
    expect(existsSync(join(dir, stored.key))).toBe(false);
    await expect(storage.remove(stored.key)).resolves.toBeUndefined();
  });

  it("gives two saves of the same bytes two different keys and leaves no partial file", async () => {
    const storage = createFileStorage(dir);
    const a = await storage.save(Buffer.from("same"));
    const b = await storage.save(Buffer.from("same"));
    expect(a.key).not.toBe(b.key);
    expect(a.sha256).toBe(b.sha256);
    const monthDir = join(dir, a.key, "..");
    expect(readdirSync(monthDir).filter((f) => f.endsWith(".partial"))).toEqual([]);
  });

  it("refuses keys it did not generate, so no path can escape the root", async () => {
    const storage = createFileStorage(dir);
    for (const key of ["../etc/passwd", "/etc/passwd", "2024/01/../../x", "2024/01/name.pdf", ""]) {
      await expect(storage.read(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(storage.remove(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    }
  });
});
