import { Injectable } from '@nestjs/common';
import { bodyProblemsOf, DETAIL_CODES, type FieldProblem, ValidationFailedError } from '@erp/errors';
import { decimalText } from '@erp/decimals';
import type { ExchangeRateDto, PutCurrencyRatesDto } from '../dto/currency-rates.dto';
import { CurrencyRatesRepository } from '../repository/currency-rates.repository';

/** One rate per currency and day; no rate for the base currency itself (it is 1 by definition). */
export function currencyRateProblems(dto: PutCurrencyRatesDto): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const seen = new Map<string, number>();
  (Array.isArray(dto.rates) ? dto.rates : []).forEach((r: Partial<ExchangeRateDto> | null, i) => {
    if (typeof r?.currencyId !== 'string') return;
    if (r.currencyId === dto.baseCurrencyId) {
      problems.push({ field: `rates[${i}].currencyId`, message: `${r.currencyId} is the base currency: its rate is 1`, code: DETAIL_CODES.invalidValue });
    }
    const key = `${r.currencyId}/${String(r.effectiveDate)}`;
    const earlier = seen.get(key);
    if (earlier === undefined) seen.set(key, i);
    else problems.push({ field: `rates[${i}]`, message: `rates[${earlier}] already gives ${r.currencyId} a rate from ${String(r.effectiveDate)}`, code: DETAIL_CODES.invalidValue });
  });
  return problems;
}

/**
 * PUT /api/v3/CurrencyRates (an extension): the company's base currency and all its exchange rates,
 * replaced whole. Orders keep the rate they were written with; a PUT changes the orders written after it.
 */
@Injectable()
export class PutCurrencyRates {
  constructor(private readonly rates: CurrencyRatesRepository) {}

  async execute(companyId: string, dto: PutCurrencyRatesDto): Promise<{ json: string; created: boolean }> {
    const problems = [...bodyProblemsOf(dto), ...currencyRateProblems(dto)];
    if (problems.length > 0) throw new ValidationFailedError(problems);
    const rates = (dto.rates ?? []).map((r) => ({ currency_id: r.currencyId, effective_date: r.effectiveDate, rate: decimalText(r.rate) }));
    return this.rates.replace(companyId, dto.baseCurrencyId, rates);
  }
}
