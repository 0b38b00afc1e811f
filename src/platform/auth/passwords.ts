import { randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";

const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(plain: string): Promise<string> {
  return hash(plain, OPTIONS);
}

export async function verifyPassword(hashed: string, plain: string): Promise<boolean> {
  try {
    return await verify(hashed, plain);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Verifying against a fixed hash when the user is unknown keeps login timing equal (no enumeration). */
export async function burnPasswordCheck(plain: string): Promise<void> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  await verifyPassword(await dummyHash, plain);
}

/** A readable random password for generated admin accounts. */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}
