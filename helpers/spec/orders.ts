/**
 * Section 2.7 inside one order (round wb19): `fromSymbol, toSymbol | string` and `fromAsset, toAsset | asset summary`
 * are two pairs named alike, the symbol of the asset paid and its summary, the symbol of the asset bought and its
 * summary. Whatever a reading writes there, an order's `fromAsset` is the asset `fromSymbol` names and its `toAsset` the
 * one `toSymbol` names: compared without letter case (allowed-r15-order-symbols-lower-case writes the symbols in lower
 * case while the summaries keep theirs). A member that is not a string on either side (a schema problem of its own)
 * is not compared.
 */
export function orderSymbolProblems(body: unknown): string[] {
  const data = (body as { data?: unknown } | null | undefined)?.data;
  const records = Array.isArray(data) ? data : data && typeof data === 'object' ? [data] : [];
  const problems: string[] = [];
  for (const record of records) {
    const order = (record as { order?: unknown } | null)?.order as Record<string, unknown> | null | undefined;
    if (!order || typeof order !== 'object') continue;
    for (const side of ['from', 'to'] as const) {
      const symbol = order[`${side}Symbol`];
      const asset = order[`${side}Asset`] as { symbol?: unknown } | null | undefined;
      const of = asset && typeof asset === 'object' ? asset.symbol : undefined;
      if (typeof symbol !== 'string' || typeof of !== 'string') continue;
      if (symbol.toLowerCase() !== of.toLowerCase()) {
        const id = (record as { id?: unknown }).id;
        problems.push(`bonus ${typeof id === 'string' ? id : '?'}: its order's ${side}Symbol is ${JSON.stringify(symbol)} but its ${side}Asset is the summary of ${JSON.stringify(of)}`);
      }
    }
  }
  return problems;
}
