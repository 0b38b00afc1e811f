import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { en } from "./en";
import { es } from "./es";

export const LANGUAGES = ["es", "en"] as const;
export type Language = (typeof LANGUAGES)[number];
const KEY = "cuadra.language";

function storedLanguage(): Language {
  const saved = localStorage.getItem(KEY);
  return saved === "en" ? "en" : "es";
}

void i18n.use(initReactI18next).init({
  resources: { es: { translation: es }, en: { translation: en } },
  lng: storedLanguage(),
  fallbackLng: "es",
  interpolation: { escapeValue: false },
});
document.documentElement.lang = i18n.language;

export function setLanguage(language: Language) {
  localStorage.setItem(KEY, language);
  document.documentElement.lang = language;
  void i18n.changeLanguage(language);
}

/** Money and numbers as the user's language writes them; the API sends decimals as strings. */
export function formatMoney(value: string | number | null | undefined, currency = "EUR"): string {
  if (value === null || value === undefined || value === "") return "—";
  return new Intl.NumberFormat(i18n.language === "en" ? "en-GB" : "es-ES", {
    style: "currency",
    currency,
  }).format(Number(value));
}

export function formatNumber(value: string | number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || value === "") return "—";
  return new Intl.NumberFormat(i18n.language === "en" ? "en-GB" : "es-ES", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(Number(value));
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return "—";
  return new Intl.DateTimeFormat(i18n.language === "en" ? "en-GB" : "es-ES").format(new Date(value));
}

export default i18n;
