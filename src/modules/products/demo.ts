import type { AuthedCtx } from "../../platform/http/context.js";
import { Dec, toMoney } from "../../platform/money.js";
import { createFamily } from "./families/service.js";
import { createProduct, type ProductValues } from "./products/service.js";

export const DEMO_FAMILIES = [
  { code: "MAT", name: "Materiales de construcción" },
  { code: "HER", name: "Herramientas y maquinaria" },
  { code: "ELE", name: "Material eléctrico y fontanería" },
  { code: "SRV", name: "Servicios y mano de obra" },
];

/** [description, cost price] per family; 25 each. */
const CATALOG: Record<string, [string, string][]> = {
  MAT: [
    ["Cemento gris CEM II/B-L 32,5 N, saco 25 kg", "4.10"],
    ["Cemento blanco BL II 42,5 R, saco 25 kg", "9.80"],
    ["Arena lavada 0/4, saco 25 kg", "1.95"],
    ["Grava 6/12, big bag 1 m³", "38.00"],
    ["Mortero seco M-7,5, saco 25 kg", "3.40"],
    ["Yeso grueso YG, saco 20 kg", "3.90"],
    ["Ladrillo perforado 24x11,5x7 cm", "0.28"],
    ["Ladrillo hueco doble 24x11,5x8 cm", "0.22"],
    ["Bloque de hormigón 40x20x20 cm", "0.95"],
    ["Bovedilla cerámica 60x25x20 cm", "1.35"],
    ["Vigueta pretensada 4 m", "21.50"],
    ["Mallazo electrosoldado 15x15 Ø6, panel 6x2,2 m", "24.90"],
    ["Barra corrugada B500S Ø12, 6 m", "6.30"],
    ["Placa de yeso laminado 13 mm, 2,5x1,2 m", "5.60"],
    ["Perfil montante 48 mm, 3 m", "2.45"],
    ["Lana mineral 60 mm, rollo 12 m²", "28.70"],
    ["Poliestireno extruido 40 mm, m²", "7.15"],
    ["Lámina impermeabilizante asfáltica, rollo 10 m²", "42.00"],
    ["Teja cerámica mixta", "0.62"],
    ["Baldosa gres porcelánico 60x60, m²", "14.90"],
    ["Adhesivo cementoso C2TE, saco 25 kg", "8.20"],
    ["Pasta de juntas CG2, saco 5 kg", "5.40"],
    ["Hormigón HA-25/B/20/IIa, m³", "78.00"],
    ["Bordillo de hormigón 100x25x12 cm", "4.75"],
    ["Adoquín de hormigón 20x10x6 cm, m²", "11.30"],
  ],
  HER: [
    ["Taladro percutor 800 W", "62.00"],
    ["Martillo perforador SDS-Plus 1.500 W", "189.00"],
    ["Amoladora angular 125 mm 1.200 W", "54.90"],
    ["Sierra circular 1.400 W", "98.50"],
    ["Hormigonera 160 l", "265.00"],
    ["Carretilla de obra 90 l", "48.00"],
    ["Nivel láser de líneas cruzadas", "129.00"],
    ["Cinta métrica 8 m", "7.40"],
    ["Paleta de albañil 18 cm", "6.90"],
    ["Llana dentada 10 mm", "8.30"],
    ["Mazo de goma 700 g", "9.15"],
    ["Cortador manual de cerámica 60 cm", "74.00"],
    ["Andamio modular, tramo 2 m", "135.00"],
    ["Escalera de aluminio 3 tramos", "149.00"],
    ["Casco de seguridad", "6.20"],
    ["Guantes de protección, par", "2.10"],
    ["Gafas de protección", "3.80"],
    ["Arnés anticaídas", "58.00"],
    ["Disco diamante 230 mm", "24.50"],
    ["Broca SDS-Plus 12x210 mm", "5.90"],
    ["Pistola de silicona profesional", "12.40"],
    ["Compresor 50 l 2 CV", "189.00"],
    ["Generador eléctrico 3 kW", "420.00"],
    ["Bomba de achique 750 W", "92.00"],
    ["Vibrador de hormigón 1.200 W", "215.00"],
  ],
  ELE: [
    ["Cable H07V-K 2,5 mm², rollo 100 m", "34.00"],
    ["Cable RZ1-K 3x6 mm², metro", "3.85"],
    ["Tubo corrugado 20 mm, rollo 100 m", "14.60"],
    ["Caja de registro 100x100 mm", "1.20"],
    ["Mecanismo interruptor simple", "3.10"],
    ["Base de enchufe schuko", "3.45"],
    ["Magnetotérmico 2P 16 A", "9.80"],
    ["Diferencial 2P 40 A 30 mA", "38.50"],
    ["Cuadro eléctrico 24 módulos", "27.90"],
    ["Downlight LED 18 W", "11.60"],
    ["Pantalla LED estanca 120 cm", "19.40"],
    ["Tubo multicapa 16 mm, rollo 100 m", "98.00"],
    ["Tubo PVC evacuación 110 mm, 3 m", "8.90"],
    ["Codo PVC 110 mm 87°", "1.65"],
    ['Válvula de esfera 1/2"', "4.30"],
    ["Grifo monomando de lavabo", "39.00"],
    ["Inodoro de porcelana con cisterna", "145.00"],
    ["Plato de ducha 120x80 cm", "118.00"],
    ["Termo eléctrico 80 l", "189.00"],
    ["Radiador de aluminio, elemento", "11.20"],
    ["Caldera de condensación 24 kW", "1120.00"],
    ["Sumidero sifónico 100x100 mm", "6.70"],
    ["Colector de fontanería 4 salidas", "24.80"],
    ["Cinta de teflón", "0.45"],
    ["Silicona sanitaria 280 ml", "3.95"],
  ],
  SRV: [
    ["Hora de oficial de primera", "24.00"],
    ["Hora de peón", "18.50"],
    ["Hora de electricista", "26.00"],
    ["Hora de fontanero", "26.00"],
    ["Hora de pintor", "22.00"],
    ["Demolición de tabique, m²", "9.50"],
    ["Levantado de alicatado, m²", "7.80"],
    ["Alicatado de cocina, m²", "21.00"],
    ["Solado de gres, m²", "19.50"],
    ["Pintura plástica de paredes, m²", "4.60"],
    ["Tabique de pladur, m²", "23.00"],
    ["Falso techo continuo, m²", "21.50"],
    ["Reforma integral de baño de vivienda", "3400.00"],
    ["Reforma de cocina de vivienda", "5200.00"],
    ["Instalación eléctrica de vivienda", "2600.00"],
    ["Boletín eléctrico (certificado de instalación)", "120.00"],
    ["Alquiler de contenedor de escombros 5 m³", "95.00"],
    ["Transporte de material, viaje", "45.00"],
    ["Alquiler de andamio, m² y mes", "3.20"],
    ["Excavación mecánica, m³", "12.40"],
    ["Impermeabilización de cubierta, m²", "18.70"],
    ["Proyecto básico y de ejecución", "2800.00"],
    ["Dirección de obra, mes", "900.00"],
    ["Estudio de seguridad y salud", "650.00"],
    ["Limpieza final de obra", "320.00"],
  ],
};

/** Renovation works on homes carry the reduced 10 % VAT rate (Ley 37/1992, art. 91.Uno.2.10º). */
const REDUCED_RATE = /de vivienda/;

/** One hundred products of the demo company, 25 per family; sale price = cost + a 30-50 % margin. */
export function demoProducts(): (ProductValues & { reference: string; description: string })[] {
  return Object.entries(CATALOG).flatMap(([familyCode, items]) =>
    items.map(([description, cost], i) => ({
      reference: `${familyCode}-${String(i + 1).padStart(3, "0")}`,
      description,
      familyCode,
      costPrice: toMoney(cost),
      salePrice: toMoney(new Dec(cost).times(new Dec("1.30").plus(new Dec("0.05").times(i % 5)))),
      vatRate: REDUCED_RATE.test(description) ? "10" : "21",
    })),
  );
}

/** Creates the four demo families and their hundred products in a company that has none of them yet. */
export async function loadProductsDemo(ctx: AuthedCtx, companyId: string): Promise<void> {
  for (const family of DEMO_FAMILIES) await createFamily(ctx, { ...family, companyId });
  for (const product of demoProducts()) await createProduct(ctx, { ...product, companyId });
}
