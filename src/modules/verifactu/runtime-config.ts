import { loadConfig, type VerifactuConfig } from "../../config.js";

/**
 * The VeriFactu configuration the records, the QR and the queue read. The documents engine calls
 * this module's hooks without any app at hand, so the routes plugin hands the app's configuration
 * over here when it is registered; until then the defaults of src/config.ts apply.
 */
let current: VerifactuConfig = loadConfig({}).verifactu;

export const verifactuConfig = (): VerifactuConfig => current;

export function useVerifactuConfig(config: VerifactuConfig): void {
  current = config;
}

const QR_HOSTS = {
  production: "https://www2.agenciatributaria.gob.es",
  test: "https://prewww2.aeat.es",
} as const;

export const qrBaseUrl = (config = current) => `${QR_HOSTS[config.environment]}/wlpl/TIKE-CONT/ValidarQR`;
