import { describe, expect, it } from 'vitest';
import { planHeader } from './csv-header.ts';

const loose = { orderMatters: false, additionalColumns: true };
const summary = (plan: ReturnType<typeof planHeader>) =>
  plan.issues.map((i) => `${i.code} ${i.field}: ${i.message}`);

describe('planHeader', () => {
  it('matches columns by exact name, in any order', () => {
    const plan = planHeader(['b', 'x', 'a'], ['a', 'b'], loose);
    expect(plan.columns).toEqual([2, 0]);
    expect(plan.issues).toEqual([]);
  });

  it('does not trim or fold case', () => {
    const plan = planHeader(['Email', ' id'], ['email', 'id'], loose);
    expect(plan.columns).toEqual([-1, -1]);
    expect(summary(plan)).toEqual([
      "missing_column email: Column 'email' is missing",
      "missing_column id: Column 'id' is missing",
    ]);
  });

  it('reports unexpected columns only when additional columns are refused', () => {
    expect(planHeader(['a', 'foo'], ['a'], loose).issues).toEqual([]);
    const plan = planHeader(['a', 'foo', 'bar'], ['a'], { ...loose, additionalColumns: false });
    expect(summary(plan)).toEqual([
      "unexpected_column foo: Unexpected column 'foo'",
      "unexpected_column bar: Unexpected column 'bar'",
    ]);
    expect(plan.issues[0]?.value).toBe('foo');
  });

  it('reports blank and duplicate headers, and uses the first copy', () => {
    const plan = planHeader(['a', '', 'a', 'b', ''], ['a', 'b'], loose);
    expect(plan.columns).toEqual([0, 3]);
    expect(summary(plan)).toEqual([
      'blank_header : Column 2 has no name in the header',
      "duplicate_column a: Column 'a' appears more than once",
      'blank_header : Column 5 has no name in the header',
    ]);
  });

  it('puts column issues in file order and missing columns last, in schema order', () => {
    const plan = planHeader(['z', 'a', ''], ['c', 'a', 'b'], {
      orderMatters: false,
      additionalColumns: false,
    });
    expect(plan.issues.map((i) => `${i.code}:${i.field}`)).toEqual([
      'unexpected_column:z',
      'blank_header:',
      'missing_column:c',
      'missing_column:b',
    ]);
  });

  describe('column order', () => {
    const ordered = { orderMatters: true, additionalColumns: true };
    it('accepts schema order with other columns and gaps between', () => {
      expect(
        planHeader(['a', 'x', 'c', 'd'], ['a', 'b', 'c', 'd'], ordered).issues.map((i) => i.code),
      ).toEqual(['missing_column']);
    });
    it('reports each out-of-place column once', () => {
      expect(summary(planHeader(['b', 'a'], ['a', 'b'], ordered))).toEqual([
        "column_order b: Column 'b' should come after 'a'",
      ]);
      expect(summary(planHeader(['a', 'c', 'd', 'b'], ['a', 'b', 'c', 'd'], ordered))).toEqual([
        "column_order b: Column 'b' should come after 'a'",
      ]);
      expect(summary(planHeader(['b', 'c', 'd', 'a'], ['a', 'b', 'c', 'd'], ordered))).toEqual([
        "column_order a: Column 'a' should come before 'b'",
      ]);
    });
    it('moves the fewest columns when the order is scrambled', () => {
      const issues = planHeader(
        ['e', 'd', 'c', 'b', 'a'],
        ['a', 'b', 'c', 'd', 'e'],
        ordered,
      ).issues;
      expect(issues).toHaveLength(4);
      expect(issues.every((i) => i.code === 'column_order')).toBe(true);
    });
    it('is ignored when order does not matter', () => {
      expect(planHeader(['b', 'a'], ['a', 'b'], loose).issues).toEqual([]);
    });
  });
});
