// The demo shop that `npm start` seeds on a fresh database: two accounts and a catalogue with a picture per product.
// Brands and products are invented. Prices are in LKR cents.
import type { Category, Role } from "../app/lib/constants";
import { CATEGORY_SIZES } from "../app/lib/sizes";
import type { ArtKind } from "./images/product-art";

export interface DemoUser {
  name: string;
  email: string;
  password: string;
  role: Role;
  phone: string;
  address: string;
}

export interface DemoProduct {
  name: string;
  brand: string;
  description: string;
  priceCents: number;
  category: Category;
  stockQuantity: number;
  releaseDate: string; // YYYY-MM-DD
  productAvailable: boolean;
  art: { kind: ArtKind; primary: string; secondary: string; accent: string; background: string };
}

export const DEMO_ADMIN: DemoUser = {
  name: "Stride Admin",
  email: "admin@stride.test",
  password: "Admin#12345",
  role: "ROLE_ADMIN",
  phone: "0112345678",
  address: "Stride Footwear (Pvt) Ltd, 12 Flower Road, Colombo 07",
};

export const DEMO_CUSTOMER: DemoUser = {
  name: "Nimal Perera",
  email: "customer@stride.test",
  password: "Customer#12345",
  role: "ROLE_CUSTOMER",
  phone: "0771234567",
  address: "45/2 Galle Road, Kollupitiya, Colombo 03",
};

const rs = (rupees: number) => Math.round(rupees * 100);

export const DEMO_PRODUCTS: DemoProduct[] = [
  // ---------------------------------------------------------------- Gents
  {
    name: "Metro Court Sneaker",
    brand: "Stride Classics",
    description: "A clean low-top in full-grain leather with a cushioned cupsole. Goes from office casual Friday to the weekend.",
    priceCents: rs(12_990),
    category: "Gents",
    stockQuantity: 24,
    releaseDate: "2025-02-14",
    productAvailable: true,
    art: { kind: "sneaker", primary: "#f4f4f2", secondary: "#1d3557", accent: "#e63946", background: "#e9edf2" },
  },
  {
    name: "Galle Face Runner",
    brand: "Urban Trek",
    description: "Lightweight mesh running shoe with a responsive foam midsole, built for humid evening runs along the seafront.",
    priceCents: rs(15_490),
    category: "Gents",
    stockQuantity: 18,
    releaseDate: "2025-06-03",
    productAvailable: true,
    art: { kind: "runner", primary: "#ff5a36", secondary: "#2b2f36", accent: "#c6f432", background: "#f3ebe6" },
  },
  {
    name: "Highland Trail Boot",
    brand: "Urban Trek",
    description: "Waterproof nubuck hiking boot with a lugged rubber outsole. Made for the misty paths around Ella and Horton Plains.",
    priceCents: rs(24_900),
    category: "Gents",
    stockQuantity: 9,
    releaseDate: "2025-09-20",
    productAvailable: true,
    art: { kind: "boot", primary: "#9a6434", secondary: "#4a3324", accent: "#d8b36a", background: "#efe8df" },
  },
  {
    name: "Kandy Heritage Oxford",
    brand: "Kandy Leather Co.",
    description: "A hand-finished cap-toe Oxford in polished calf leather with a leather sole. The pair for weddings and board meetings.",
    priceCents: rs(29_500),
    category: "Gents",
    stockQuantity: 7,
    releaseDate: "2025-04-11",
    productAvailable: true,
    art: { kind: "oxford", primary: "#1e1b19", secondary: "#3a2c24", accent: "#9c7a54", background: "#e9e7e4" },
  },
  {
    name: "Colombo Penny Loafer",
    brand: "Kandy Leather Co.",
    description: "Soft suede penny loafer with a flexible stitched sole. Slip on, no socks needed.",
    priceCents: rs(18_750),
    category: "Gents",
    stockQuantity: 15,
    releaseDate: "2025-11-05",
    productAvailable: true,
    art: { kind: "loafer", primary: "#7a3b1e", secondary: "#4d2412", accent: "#d9b26f", background: "#f1ebe4" },
  },
  {
    name: "Monsoon Chelsea Boot",
    brand: "Stride Classics",
    description: "Elastic-sided Chelsea boot in oiled leather with a grippy sole that copes with wet pavements.",
    priceCents: rs(26_900),
    category: "Gents",
    stockQuantity: 0,
    releaseDate: "2026-01-22",
    productAvailable: true,
    art: { kind: "chelsea-boot", primary: "#3a2a20", secondary: "#1f1d1c", accent: "#b08a5a", background: "#ece6e0" },
  },
  {
    name: "Arugam Bay Slide Sandal",
    brand: "Coastline",
    description: "Two-strap leather sandal on a contoured cork footbed. Dries quickly after a walk on the beach.",
    priceCents: rs(7_490),
    category: "Gents",
    stockQuantity: 32,
    releaseDate: "2026-03-08",
    productAvailable: true,
    art: { kind: "sandal", primary: "#6b4a2f", secondary: "#e8d5b9", accent: "#c08a3e", background: "#f2ece3" },
  },
  {
    name: "Night Shift Knit Sneaker",
    brand: "Urban Trek",
    description: "Breathable one-piece knit upper in charcoal with reflective details for late commutes.",
    priceCents: rs(13_990),
    category: "Gents",
    stockQuantity: 21,
    releaseDate: "2026-07-15",
    productAvailable: true,
    art: { kind: "sneaker", primary: "#33383f", secondary: "#8d99ae", accent: "#3ddc97", background: "#e4e7eb" },
  },

  // --------------------------------------------------------------- Ladies
  {
    name: "Lotus Block Heel",
    brand: "Serendib Studio",
    description: "A 6 cm block heel in crimson patent leather with a padded insole, steady enough to dance in all night.",
    priceCents: rs(16_900),
    category: "Ladies",
    stockQuantity: 12,
    releaseDate: "2025-03-01",
    productAvailable: true,
    art: { kind: "heel", primary: "#c8102e", secondary: "#f3d9c6", accent: "#1a1a1a", background: "#f6e9ea" },
  },
  {
    name: "Midnight Stiletto Pump",
    brand: "Serendib Studio",
    description: "A classic pointed pump in black suede with a slim 9 cm heel.",
    priceCents: rs(21_500),
    category: "Ladies",
    stockQuantity: 6,
    releaseDate: "2025-12-12",
    productAvailable: true,
    art: { kind: "heel", primary: "#191a1f", secondary: "#d8c3b0", accent: "#c9a227", background: "#ecebf0" },
  },
  {
    name: "Blush Ballet Flat",
    brand: "Lanka Soles",
    description: "Soft nappa ballet flat with a bow and a cushioned heel. Folds into a handbag for the commute home.",
    priceCents: rs(8_990),
    category: "Ladies",
    stockQuantity: 27,
    releaseDate: "2025-05-19",
    productAvailable: true,
    art: { kind: "flat", primary: "#f0c6c9", secondary: "#fff4ef", accent: "#2b2b2b", background: "#f7eeee" },
  },
  {
    name: "Unawatuna Strappy Sandal",
    brand: "Coastline",
    description: "Tan leather straps with a gold-tone buckle on a soft, low wedge. Summer in one pair.",
    priceCents: rs(9_750),
    category: "Ladies",
    stockQuantity: 19,
    releaseDate: "2025-08-07",
    productAvailable: true,
    art: { kind: "sandal", primary: "#c98d5b", secondary: "#f0dcc2", accent: "#d4ad52", background: "#f4ede4" },
  },
  {
    name: "Sage Everyday Sneaker",
    brand: "Stride Classics",
    description: "A minimal leather sneaker in sage green with a tonal sole and a removable insole.",
    priceCents: rs(11_990),
    category: "Ladies",
    stockQuantity: 30,
    releaseDate: "2026-02-02",
    productAvailable: true,
    art: { kind: "sneaker", primary: "#a3b8a0", secondary: "#f6f4ee", accent: "#6a7f66", background: "#eef2ec" },
  },
  {
    name: "Cinnamon Ankle Boot",
    brand: "Kandy Leather Co.",
    description: "A suede Chelsea ankle boot in warm cinnamon, lined in leather and set on a low stacked heel.",
    priceCents: rs(23_400),
    category: "Ladies",
    stockQuantity: 8,
    releaseDate: "2025-10-25",
    productAvailable: false,
    art: { kind: "chelsea-boot", primary: "#b5652b", secondary: "#5a3420", accent: "#e0b07a", background: "#f4ebe3" },
  },
  {
    name: "Lagoon Trail Runner",
    brand: "Urban Trek",
    description: "A grippy trail runner with a rock plate and a breathable upper in lagoon teal.",
    priceCents: rs(14_750),
    category: "Ladies",
    stockQuantity: 14,
    releaseDate: "2026-05-30",
    productAvailable: true,
    art: { kind: "runner", primary: "#1f9e9a", secondary: "#f2f5f5", accent: "#ff7f6e", background: "#e5f2f1" },
  },
  {
    name: "Pearl Tassel Loafer",
    brand: "Serendib Studio",
    description: "Ivory leather loafer with tassels and a flexible rubber sole, smart enough for the office.",
    priceCents: rs(15_250),
    category: "Ladies",
    stockQuantity: 11,
    releaseDate: "2026-09-14",
    productAvailable: true,
    art: { kind: "loafer", primary: "#efe6d8", secondary: "#b89b72", accent: "#c9a46a", background: "#f6f1ea" },
  },

  // ----------------------------------------------------------------- Kids
  {
    name: "Little Explorer Light-Up Sneaker",
    brand: "Tiny Steps",
    description: "Hook-and-loop sneakers with soles that flash at every step. Easy for small hands to put on.",
    priceCents: rs(6_490),
    category: "Kids",
    stockQuantity: 35,
    releaseDate: "2025-01-20",
    productAvailable: true,
    art: { kind: "kids-sneaker", primary: "#2ec4b6", secondary: "#ffffff", accent: "#ff9f1c", background: "#e6f5f3" },
  },
  {
    name: "Rainbow Splash Sandal",
    brand: "Tiny Steps",
    description: "Soft, washable sandals with an adjustable strap and a non-slip sole for the pool and the playground.",
    priceCents: rs(4_990),
    category: "Kids",
    stockQuantity: 40,
    releaseDate: "2025-04-02",
    productAvailable: true,
    art: { kind: "kids-sandal", primary: "#ff6f91", secondary: "#ffd166", accent: "#06d6a0", background: "#fdf0f3" },
  },
  {
    name: "School Day Velcro Sneaker",
    brand: "Lanka Soles",
    description: "Black leather school shoe styled as a sneaker, with a scuff-resistant toe cap.",
    priceCents: rs(7_250),
    category: "Kids",
    stockQuantity: 26,
    releaseDate: "2025-12-28",
    productAvailable: true,
    art: { kind: "kids-sneaker", primary: "#222222", secondary: "#eeeeee", accent: "#e63946", background: "#ebebeb" },
  },
  {
    name: "Puddle Jumper Boot",
    brand: "Tiny Steps",
    description: "A sturdy little lace-up boot for muddy adventures, with a padded collar and a pull loop.",
    priceCents: rs(8_490),
    category: "Kids",
    stockQuantity: 0,
    releaseDate: "2025-07-16",
    productAvailable: true,
    art: { kind: "boot", primary: "#f2b632", secondary: "#3d405b", accent: "#e07a5f", background: "#f7f0de" },
  },
  {
    name: "Dino Stomp Slipper",
    brand: "Tiny Steps",
    description: "Fleece-lined house slippers with a friendly dinosaur face and a grippy sole.",
    priceCents: rs(5_250),
    category: "Kids",
    stockQuantity: 22,
    releaseDate: "2026-04-10",
    productAvailable: true,
    art: { kind: "slipper", primary: "#6ab04c", secondary: "#f0f7e8", accent: "#f9ca24", background: "#eef5e8" },
  },
  {
    name: "Sunny Day Buckle Sandal",
    brand: "Coastline",
    description: "Closed-toe sandal in sunny yellow with a quick-release buckle, made for growing feet.",
    priceCents: rs(5_790),
    category: "Kids",
    stockQuantity: 17,
    releaseDate: "2026-06-21",
    productAvailable: true,
    art: { kind: "kids-sandal", primary: "#ffc93c", secondary: "#3f88c5", accent: "#ff6b6b", background: "#fdf6e0" },
  },
  {
    name: "Junior Sprint Runner",
    brand: "Urban Trek",
    description: "A light running shoe with elastic laces and a toggle for sports day and beyond.",
    priceCents: rs(7_990),
    category: "Kids",
    stockQuantity: 13,
    releaseDate: "2026-10-03",
    productAvailable: true,
    art: { kind: "runner", primary: "#4361ee", secondary: "#f1f3ff", accent: "#f72585", background: "#e9ecfb" },
  },

  // ---------------------------------------------------------- Accessories
  {
    name: "Weekend Leather Tote",
    brand: "Kandy Leather Co.",
    description: "A roomy tote in vegetable-tanned leather with an inner zip pocket. It softens and darkens with use.",
    priceCents: rs(34_500),
    category: "Accessories",
    stockQuantity: 5,
    releaseDate: "2025-03-18",
    productAvailable: true,
    art: { kind: "bag", primary: "#8b5a2b", secondary: "#5a3a1c", accent: "#d4ad52", background: "#f2ece5" },
  },
  {
    name: "Classic Brown Dress Belt",
    brand: "Kandy Leather Co.",
    description: "A 35 mm belt in full-grain leather with a brushed nickel buckle. Cut to length in store on request.",
    priceCents: rs(5_990),
    category: "Accessories",
    stockQuantity: 28,
    releaseDate: "2025-05-27",
    productAvailable: true,
    art: { kind: "belt", primary: "#5b3a1e", secondary: "#3e2714", accent: "#c0c6cc", background: "#eeeae6" },
  },
  {
    name: "Slimline Bifold Wallet",
    brand: "Stride Classics",
    description: "A slim bifold with six card slots and a note compartment, in black leather with tan edges.",
    priceCents: rs(6_750),
    category: "Accessories",
    stockQuantity: 33,
    releaseDate: "2025-09-09",
    productAvailable: true,
    art: { kind: "wallet", primary: "#2d2a26", secondary: "#7a5230", accent: "#c9a46a", background: "#ebe8e4" },
  },
  {
    name: "Cushioned Crew Socks (3 Pack)",
    brand: "Lanka Soles",
    description: "Cotton-rich crew socks with a cushioned sole and arch support. Three pairs per pack.",
    priceCents: rs(2_490),
    category: "Accessories",
    stockQuantity: 40,
    releaseDate: "2025-11-30",
    productAvailable: true,
    art: { kind: "socks", primary: "#f4f1ea", secondary: "#1f6feb", accent: "#ff6b3d", background: "#e9eef4" },
  },
  {
    name: "Coastline Canvas Cap",
    brand: "Coastline",
    description: "A washed cotton six-panel cap with an adjustable strap that shades you from the midday sun.",
    priceCents: rs(3_990),
    category: "Accessories",
    stockQuantity: 24,
    releaseDate: "2026-01-10",
    productAvailable: true,
    art: { kind: "cap", primary: "#14213d", secondary: "#fca311", accent: "#ffffff", background: "#e8ebf1" },
  },
  {
    name: "Heritage Field Watch",
    brand: "Serendib Studio",
    description: "A 40 mm field watch with a gold-tone case and a brown leather strap. Water resistant to 50 m.",
    priceCents: rs(32_900),
    category: "Accessories",
    stockQuantity: 4,
    releaseDate: "2026-03-27",
    productAvailable: true,
    art: { kind: "watch", primary: "#101820", secondary: "#6b4423", accent: "#e0b04c", background: "#ececec" },
  },
  {
    name: "Crossbody Sling Bag",
    brand: "Urban Trek",
    description: "A compact water-resistant sling with a padded phone pocket, for the bus, the train or the market.",
    priceCents: rs(8_990),
    category: "Accessories",
    stockQuantity: 16,
    releaseDate: "2026-08-19",
    productAvailable: true,
    art: { kind: "bag", primary: "#2a9d8f", secondary: "#264653", accent: "#e9c46a", background: "#e6f1ef" },
  },
  {
    name: "Reversible Casual Belt",
    brand: "Stride Classics",
    description: "Black on one side, navy on the other, with a rotating matte buckle. Two belts for the price of one.",
    priceCents: rs(4_990),
    category: "Accessories",
    stockQuantity: 20,
    releaseDate: "2026-11-22",
    productAvailable: true,
    art: { kind: "belt", primary: "#1b263b", secondary: "#0d1b2a", accent: "#9aa5b1", background: "#e7eaee" },
  },
];

/**
 * A demo product's sizes: its category's size set, stocked as a shop stocks shoes (most in the middle sizes, fewer
 * towards the ends, the product's stock figure setting the peak), none when the product is sold out, and on every
 * other product one size sold out, so the size picker shows what that looks like.
 */
export function demoSizes(category: Category, total: number, seed: number): { label: string; stockQuantity: number }[] {
  const labels = CATEGORY_SIZES[category];
  if (labels.length === 1) return [{ label: labels[0], stockQuantity: total }];
  const middle = (labels.length - 1) / 2;
  const peak = Math.ceil(total / 2);
  const stock = labels.map((_, i) => (total === 0 ? 0 : Math.max(1, peak - Math.round(Math.abs(i - middle) * 1.5))));
  if (seed % 2 === 0 && total > 0) stock[(seed * 3) % labels.length] = 0;
  return labels.map((label, i) => ({ label, stockQuantity: stock[i] }));
}
