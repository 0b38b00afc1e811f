import type { CertificationState, CostCategory } from "./tables.js";

/**
 * The demo project: a small residential building (12 dwellings, basement garage, 4 floors).
 * Item: [unit, summary, unit price, measurement lines]; a measurement line is
 * "label|units|length|width|height" (a blank counts as 1, negative units subtract openings).
 */
export type ItemData = [unit: string, summary: string, unitPrice: string, measurements: string];

export interface ChapterData {
  summary: string;
  /** Planned window of the chapter's work; its two activities split it at `middle`. */
  start: string;
  middle: string;
  end: string;
  /** Who supplies the chapter's costs, by the two categories it alternates between. */
  costs: [category: CostCategory, supplier: string][];
  items: ItemData[];
}

export const DEMO_CODE = "DEMO-EDIFICIO";

export const DEMO_BUDGET = {
  code: DEMO_CODE,
  name: "Edificio de 12 viviendas, garaje y trasteros",
  clientName: "Promociones Valle del Ebro, S.L.",
  description:
    "Edificio residencial entre medianeras: sótano de garaje, planta baja y tres plantas de viviendas.",
  startDate: "2025-01-07",
  endDate: "2025-12-19",
  ownerAddress: "Avenida de Portugal 12, 26001 Logroño",
  siteAddress: "Calle Duquesa de la Victoria 88, 26004 Logroño",
  fileNumber: "EXP-2025/014",
  siteManagerName: "Lucía Martínez Sáenz, arquitecta",
  contractorSignatory: "Javier Pérez Ruiz, jefe de obra",
  ownerSignatory: "Ana Gómez Ibáñez, administradora",
};

export const DEMO_CHAPTERS: ChapterData[] = [
  {
    summary: "Movimiento de tierras",
    start: "2025-01-07",
    middle: "2025-01-24",
    end: "2025-02-14",
    costs: [
      ["machinery", "Excavaciones Iregua, S.L."],
      ["subcontract", "Transportes y Contenedores Rioja, S.L."],
    ],
    items: [
      ["m2", "Desbroce y limpieza del terreno con medios mecánicos", "1.15", "Solar|1|32.5|24.8|"],
      [
        "m3",
        "Excavación a cielo abierto para sótano en terreno compacto, con medios mecánicos",
        "6.85",
        "Sótano|1|28.4|20.6|3.2",
      ],
      [
        "m3",
        "Excavación en zanjas para cimentación",
        "14.20",
        "Zanjas perimetrales|1|98.0|0.6|0.8; Zanjas interiores|1|46.5|0.6|0.8",
      ],
      ["m3", "Excavación en pozos para zapatas aisladas", "16.75", "Zapatas|12|1.8|1.8|1.0"],
      [
        "m3",
        "Relleno y compactación de trasdós de muros con tierras de la excavación",
        "8.40",
        "Trasdós muros|1|98.0|0.8|2.6",
      ],
      [
        "m3",
        "Transporte de tierras a vertedero autorizado a menos de 20 km",
        "5.95",
        "Sótano (esponjamiento 25%)|1.25|28.4|20.6|3.2",
      ],
      ["m2", "Refino y compactación del fondo de la excavación", "0.95", "Sótano|1|28.4|20.6|"],
    ],
  },
  {
    summary: "Cimentación",
    start: "2025-02-03",
    middle: "2025-02-24",
    end: "2025-03-21",
    costs: [
      ["material", "Hormigones y Áridos del Ebro, S.A."],
      ["labour", "Construcciones Hermanos Sáenz, S.L."],
    ],
    items: [
      [
        "m3",
        "Hormigón de limpieza HL-150/B/20 en fondo de cimentación, 10 cm",
        "72.40",
        "Zapatas|12|1.8|1.8|0.1; Zanjas|1|144.5|0.6|0.1",
      ],
      ["m3", "Hormigón HA-25/B/20/IIa en zapatas, vibrado y curado", "98.60", "Zapatas|12|1.8|1.8|0.9"],
      ["m3", "Hormigón HA-25/B/20/IIa en vigas de atado", "104.30", "Vigas riostras|1|86.0|0.4|0.5"],
      [
        "kg",
        "Acero B500S en armaduras de cimentación, cortado, doblado y colocado",
        "1.12",
        "Zapatas|12|285||; Riostras|1|1240||",
      ],
      [
        "m3",
        "Muro de sótano de hormigón armado HA-25, encofrado a dos caras",
        "265.00",
        "Muro perimetral|1|98.0|0.3|3.0",
      ],
      [
        "m2",
        "Lámina impermeabilizante de betún modificado en trasdós de muro",
        "16.80",
        "Muro perimetral|1|98.0||3.0",
      ],
      ["m2", "Solera de hormigón HA-25 de 15 cm con mallazo ME 15x15", "24.90", "Sótano|1|28.4|20.6|"],
      ["ml", "Tubo dren de PVC ranurado de 160 mm envuelto en geotextil", "18.45", "Perímetro|1|98.0||"],
    ],
  },
  {
    summary: "Estructura",
    start: "2025-03-10",
    middle: "2025-04-18",
    end: "2025-05-30",
    costs: [
      ["subcontract", "Estructuras Najerilla, S.L."],
      ["material", "Ferralla Rioja, S.A."],
    ],
    items: [
      ["m3", "Hormigón HA-25/B/20/IIa en pilares con encofrado metálico", "385.00", "Pilares|48|0.3|0.3|3.0"],
      [
        "m2",
        "Forjado reticular 25+5 con casetón recuperable",
        "62.50",
        "Planta baja|1|28.4|20.6|; Plantas 1ª a 3ª|3|24.6|18.2|",
      ],
      ["m2", "Losa maciza de escalera de 18 cm de HA-25", "92.30", "Tramos|4|6.2|1.2|"],
      ["kg", "Acero B500S en pilares y vigas", "1.15", "Pilares|48|42||; Vigas|1|8650||"],
      ["m2", "Forjado de cubierta con losa alveolar 20+5", "58.75", "Cubierta|1|24.6|18.2|"],
      ["kg", "Acero S275JR en perfiles laminados para dinteles", "2.35", "Dinteles|36|28.5||"],
      ["ud", "Junta de dilatación con perfil elastomérico", "145.00", "Juntas|4|||"],
      ["m2", "Rampa de garaje de hormigón armado", "78.20", "Rampa|1|18.5|3.5|"],
    ],
  },
  {
    summary: "Albañilería",
    start: "2025-05-05",
    middle: "2025-06-20",
    end: "2025-08-01",
    costs: [
      ["labour", "Albañilería Hermanos Ochoa, S.L."],
      ["material", "Almacenes de Construcción Rioja, S.L."],
    ],
    items: [
      [
        "m2",
        "Fábrica de ladrillo cara vista de 1/2 pie, hidrofugado",
        "48.60",
        "Fachada principal|1|24.6||12.0; Fachada trasera|1|24.6||12.0; Huecos|-36|1.5||1.4",
      ],
      ["m2", "Trasdosado de ladrillo hueco doble de 7 cm", "14.85", "Fachadas|2|24.6||12.0"],
      [
        "m2",
        "Tabique de ladrillo hueco sencillo de 4 cm en distribuciones",
        "12.40",
        "Viviendas|12|38.5||2.6",
      ],
      [
        "m2",
        "Tabique de placa de yeso laminado 15+48+15 con aislamiento",
        "32.75",
        "Separación viviendas|12|8.4||2.6",
      ],
      ["m2", "Aislamiento de lana mineral de 60 mm en cámara de fachada", "9.80", "Fachadas|2|24.6||12.0"],
      ["ml", "Vierteaguas de piedra artificial de 30 cm", "27.40", "Ventanas|36|1.6||"],
      ["ud", "Ayudas de albañilería a instalaciones, por vivienda", "485.00", "Viviendas|12|||"],
    ],
  },
  {
    summary: "Cubiertas",
    start: "2025-06-02",
    middle: "2025-06-27",
    end: "2025-07-25",
    costs: [
      ["subcontract", "Cubiertas y Aislamientos Oja, S.L."],
      ["material", "Almacenes de Construcción Rioja, S.L."],
    ],
    items: [
      [
        "m2",
        "Cubierta plana transitable invertida con XPS de 80 mm y solado",
        "89.50",
        "Cubierta|1|24.6|18.2|",
      ],
      ["m2", "Formación de pendientes con hormigón celular", "14.20", "Cubierta|1|24.6|18.2|"],
      [
        "m2",
        "Lámina impermeabilizante bicapa de betún modificado",
        "21.60",
        "Cubierta (solapes 10%)|1.1|24.6|18.2|",
      ],
      ["ml", "Albardilla de piedra artificial en remate de peto", "34.80", "Perímetro|1|85.6||"],
      ["ud", "Sumidero sifónico de PVC de salida vertical 110 mm", "68.00", "Sumideros|6|||"],
      ["ml", "Canalón de zinc de 33 cm de desarrollo", "29.90", "Patios|2|18.2||"],
      ["ud", "Lucernario de policarbonato en caja de escalera", "1250.00", "Escalera|1|||"],
    ],
  },
  {
    summary: "Instalaciones",
    start: "2025-06-16",
    middle: "2025-08-29",
    end: "2025-10-31",
    costs: [
      ["subcontract", "Instalaciones Cameros, S.L."],
      ["material", "Suministros Eléctricos Logroño, S.A."],
    ],
    items: [
      ["ud", "Instalación de fontanería de vivienda con tubería PEX", "1850.00", "Viviendas|12|||"],
      ["ud", "Red de saneamiento horizontal de PVC, por vivienda", "620.00", "Viviendas|12|||"],
      ["ml", "Bajante de PVC insonorizada de 110 mm", "24.50", "Bajantes|8|13.5||"],
      ["ud", "Instalación eléctrica de vivienda, electrificación elevada", "2450.00", "Viviendas|12|||"],
      ["ud", "Suelo radiante con producción por aerotermia, por vivienda", "6850.00", "Viviendas|12|||"],
      ["ud", "Infraestructura común de telecomunicaciones, por vivienda", "540.00", "Viviendas|12|||"],
      ["ud", "Ascensor eléctrico de 6 personas y 5 paradas", "24500.00", "Ascensor|1|||"],
      ["ud", "Ventilación mecánica de doble flujo, por vivienda", "1480.00", "Viviendas|12|||"],
    ],
  },
  {
    summary: "Carpintería",
    start: "2025-09-01",
    middle: "2025-10-03",
    end: "2025-11-07",
    costs: [
      ["subcontract", "Carpintería Metálica Tirón, S.L."],
      ["material", "Maderas del Iregua, S.A."],
    ],
    items: [
      [
        "m2",
        "Ventana de aluminio con rotura de puente térmico y doble acristalamiento",
        "385.00",
        "Ventanas|36|1.5||1.4; Balconeras|12|1.8||2.2",
      ],
      ["ud", "Puerta blindada de entrada a vivienda", "720.00", "Viviendas|12|||"],
      ["ud", "Puerta de paso interior lacada en blanco", "265.00", "Puertas|72|||"],
      ["ud", "Armario empotrado de dos hojas correderas", "590.00", "Armarios|24|||"],
      ["ml", "Barandilla de acero inoxidable en escalera", "148.00", "Tramos|4|7.5||"],
      ["ud", "Puerta seccional de garaje motorizada", "3150.00", "Garaje|1|||"],
      [
        "m2",
        "Persiana de aluminio térmico motorizada",
        "118.00",
        "Ventanas|36|1.5||1.5; Balconeras|12|1.8||2.3",
      ],
    ],
  },
  {
    summary: "Acabados",
    start: "2025-09-22",
    middle: "2025-11-07",
    end: "2025-12-19",
    costs: [
      ["labour", "Revestimientos Cidacos, S.L."],
      ["material", "Cerámicas y Pavimentos Ebro, S.A."],
    ],
    items: [
      ["m2", "Solado de gres porcelánico 60x60 con adhesivo", "38.50", "Viviendas|12|78.5||"],
      ["m2", "Alicatado cerámico en baños y cocinas", "31.20", "Baños|24|18.6||; Cocinas|12|14.2||"],
      ["m2", "Enlucido de yeso a buena vista en paramentos verticales", "11.40", "Viviendas|12|215.0||"],
      ["m2", "Falso techo de placa de yeso laminado", "24.60", "Baños y pasillos|12|22.0||"],
      ["m2", "Pintura plástica lisa en paramentos y techos", "6.85", "Paredes|12|215.0||; Techos|12|78.5||"],
      ["m2", "Revestimiento de fachada con mortero monocapa", "22.30", "Fachadas laterales|2|18.2||12.0"],
      ["m2", "Solado de terrazo en portal y rellanos", "42.80", "Zonas comunes|1|96.0||"],
      ["ud", "Limpieza final de obra, por vivienda", "185.00", "Viviendas|12|||"],
    ],
  },
];

/** Cumulative progress per chapter (by index) in each certification, and each certification's period. */
export const DEMO_CERTIFICATIONS: {
  periodStart: string;
  periodEnd: string;
  estado: CertificationState;
  progress: string[];
}[] = [
  { periodStart: "2025-01-07", periodEnd: "2025-02-28", estado: "validada", progress: ["1", "0.85", "0.1"] },
  {
    periodStart: "2025-03-01",
    periodEnd: "2025-03-31",
    estado: "validada",
    progress: ["1", "1", "0.55", "0.1"],
  },
  {
    periodStart: "2025-04-01",
    periodEnd: "2025-04-30",
    estado: "emitida",
    progress: ["1", "1", "1", "0.45", "0.2", "0.15"],
  },
];

/** Costs of the site as a whole, charged to no budget item. */
export const DEMO_SITE_COSTS: [
  date: string,
  category: CostCategory,
  supplier: string,
  concept: string,
  net: string,
][] = [
  [
    "2025-01-10",
    "other",
    "Módulos Prefabricados Norte, S.L.",
    "Alquiler de caseta de obra y aseos (enero-abril)",
    "1840.00",
  ],
  ["2025-01-12", "other", "Seguros La Rioja Mutua", "Seguro todo riesgo construcción", "2650.00"],
  ["2025-02-03", "machinery", "Grúas Ebro, S.L.", "Alquiler de grúa torre (febrero-abril)", "5200.00"],
  ["2025-01-09", "material", "Vallas y Cerramientos Rioja, S.L.", "Vallado perimetral de obra", "1380.50"],
  ["2025-04-25", "other", "Iberdrola Clientes, S.A.U.", "Consumo eléctrico provisional de obra", "612.35"],
  [
    "2025-03-31",
    "subcontract",
    "Prevención Obras Rioja, S.L.",
    "Coordinación de seguridad y salud (1er trimestre)",
    "1950.00",
  ],
];

/**
 * Costs charged to items, per chapter (by index): the fraction of each item's budget executed when the
 * costs were booked (in step with the validated certifications, plus early costs of the next chapters) and how many of its items carry costs.
 */
export const DEMO_COST_PROGRESS: [fraction: string, itemsCharged: number][] = [
  ["1", 7],
  ["1", 8],
  ["0.55", 8],
  ["0.1", 7],
  ["0.05", 2],
  ["0.04", 2],
];

/** Actual cost of a charged item relative to its executed budget: some over, most under. */
export const DEMO_COST_FACTORS = ["0.78", "0.86", "0.93", "0.71", "0.84", "1.04", "0.81"];
