/**
 * ISO 4217 gives each currency two codes of equal standing: an alphabetic code of three letters ("EUR") and a
 * numeric code of three digits ("978"), kept for systems that cannot use Latin letters and used by card networks
 * (ISO 8583) and payment cores that key currencies by number. Section 2.4 says a bank's currency is an "ISO currency
 * code" and never which of the two a record shows, so "978" shown for "EUR" sent is the same currency
 * (allowed-r9-currency-shown-numeric; docs/judging.md, "Equivalent forms").
 *
 * The numeric codes of ISO 4217 Table A.1 (list one) for every currency the suite sends: the class it draws from
 * (helpers/arrange/currencies.ts, the codes active in every edition since 2015, which holds every code it sends by
 * name). test/currencies.test.ts holds the two lists together. Written with the leading zeros the standard writes.
 */
export const ISO_4217_NUMERIC: Readonly<Record<string, string>> = Object.freeze({
  AED: '784', AFN: '971', ALL: '008', AMD: '051', AOA: '973', ARS: '032', AUD: '036', AWG: '533', AZN: '944',
  BAM: '977', BBD: '052', BDT: '050', BHD: '048', BIF: '108', BMD: '060', BND: '096', BOB: '068', BRL: '986', BSD: '044', BTN: '064', BWP: '072', BZD: '084',
  CAD: '124', CDF: '976', CHF: '756', CLP: '152', CNY: '156', COP: '170', CRC: '188', CUP: '192', CVE: '132', CZK: '203',
  DJF: '262', DKK: '208', DOP: '214', DZD: '012',
  EGP: '818', ERN: '232', ETB: '230', EUR: '978',
  FJD: '242', FKP: '238',
  GBP: '826', GEL: '981', GHS: '936', GIP: '292', GMD: '270', GNF: '324', GTQ: '320', GYD: '328',
  HKD: '344', HNL: '340', HTG: '332', HUF: '348',
  IDR: '360', ILS: '376', INR: '356', IQD: '368', IRR: '364', ISK: '352',
  JMD: '388', JOD: '400', JPY: '392',
  KES: '404', KGS: '417', KHR: '116', KMF: '174', KPW: '408', KRW: '410', KWD: '414', KYD: '136', KZT: '398',
  LAK: '418', LBP: '422', LKR: '144', LRD: '430', LSL: '426', LYD: '434',
  MAD: '504', MDL: '498', MGA: '969', MKD: '807', MMK: '104', MNT: '496', MOP: '446', MUR: '480', MVR: '462', MWK: '454', MXN: '484', MYR: '458', MZN: '943',
  NAD: '516', NGN: '566', NIO: '558', NOK: '578', NPR: '524', NZD: '554',
  OMR: '512',
  PAB: '590', PEN: '604', PGK: '598', PHP: '608', PKR: '586', PLN: '985', PYG: '600',
  QAR: '634',
  RON: '946', RSD: '941', RUB: '643', RWF: '646',
  SAR: '682', SBD: '090', SCR: '690', SDG: '938', SEK: '752', SGD: '702', SHP: '654', SOS: '706', SRD: '968', SSP: '728', SVC: '222', SZL: '748',
  THB: '764', TJS: '972', TMT: '934', TND: '788', TOP: '776', TRY: '949', TTD: '780', TWD: '901', TZS: '834',
  UAH: '980', UGX: '800', USD: '840', UYU: '858', UZS: '860',
  VND: '704', VUV: '548',
  WST: '882',
  XAF: '950', XCD: '951', XOF: '952', XPF: '953',
  YER: '886',
  ZAR: '710', ZMW: '967',
});

const ALPHABETIC_OF_NUMERIC: ReadonlyMap<string, string> = new Map(Object.entries(ISO_4217_NUMERIC).map(([alphabetic, numeric]) => [numeric, alphabetic]));

/**
 * The alphabetic code a currency code names: an ISO 4217 numeric code of the table (three digits, leading zeros included,
 * as the standard writes it: "036" for AUD, never "36") is read as its alphabetic code; any other text is given
 * back trimmed and upper-cased (ISO 4217 writes its letters upper-case). Two codes of one currency give one result; a
 * numeric code the table does not hold stays as it is, so it never equals a letter code.
 */
export function alphabeticCurrency(code: string): string {
  const text = code.trim();
  if (/^\d{3}$/.test(text)) return ALPHABETIC_OF_NUMERIC.get(text) ?? text;
  return text.toUpperCase();
}

/** Whether two currency codes name one currency (in any letter case, alphabetic or numeric). */
export function sameCurrency(one: unknown, other: unknown): boolean {
  return typeof one === 'string' && typeof other === 'string' && alphabeticCurrency(one) === alphabeticCurrency(other);
}

/**
 * The writings of a currency code a filter may be sent, in the order tried: the text itself, then its alphabetic code
 * and that code's numeric code (a target may compare the filter with the code it stores, of either kind).
 */
export function currencyWritings(code: string): string[] {
  const alphabetic = alphabeticCurrency(code);
  const numeric = Object.hasOwn(ISO_4217_NUMERIC, alphabetic) ? ISO_4217_NUMERIC[alphabetic] : undefined;
  return [...new Set([code, alphabetic, ...(numeric !== undefined ? [numeric] : [])])];
}
