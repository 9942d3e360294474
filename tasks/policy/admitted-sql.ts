/**
 * What a policy may call: DuckDB's functions, operators, table functions and
 * types that are exact and give the same answer on every machine, whatever
 * the order the rows arrive in and however many threads the engine runs.
 * Anything else is refused before the policy runs. The README's "Admitted
 * SQL" lists the same names (a test holds the two together), and a test
 * checks each name against the engine's own `duckdb_functions()`.
 */

/**
 * How a function's result depends on the order of its rows:
 * - `free`: it does not (a sum, a count);
 * - `ordered`: it does, so it needs an ORDER BY of its own, and ties in that
 *   order decide (checked by a second run, see `compute`);
 * - `ties`: its order is built in (arg_max's key, mode's counts), and ties
 *   decide (checked by a second run).
 */
type OrderRule = "free" | "ordered" | "ties";

export interface AdmittedGroup {
  /** The group's heading in the README's table. */
  group: string;
  kind: "scalar" | "aggregate" | "window" | "table" | "operator";
  order: OrderRule;
  names: string[];
}

const words = (text: string): string[] => text.trim().split(/\s+/);

export const ADMITTED: AdmittedGroup[] = [
  {
    group: "arithmetic",
    kind: "operator",
    order: "free",
    names: words("+ - * // % << >> & | ~ xor"),
  },
  {
    group: "text operators",
    kind: "operator",
    order: "free",
    names: words("|| ~~ !~~ ~~* !~~* ~~~ ^@"),
  },
  {
    group: "numbers",
    kind: "scalar",
    order: "free",
    names: words(`abs add subtract multiply mod sign ceil ceiling floor round
      trunc gcd lcm greatest_common_divisor least_common_multiple factorial
      greatest least bit_count nullif`),
  },
  {
    group: "text",
    kind: "scalar",
    order: "free",
    names: words(`lower upper lcase ucase concat concat_ws length len strlen
      char_length character_length octet_length bit_length substr substring
      left right lpad rpad trim ltrim rtrim replace reverse repeat starts_with
      ends_with prefix suffix contains instr strpos position split_part
      string_split str_split string_to_array split regexp_matches
      regexp_full_match regexp_extract regexp_extract_all regexp_replace
      regexp_split_to_array string_split_regex str_split_regex like_escape
      ilike_escape not_like_escape not_ilike_escape ascii chr unicode ord
      translate format printf to_base`),
  },
  {
    group: "bytes and hashes",
    kind: "scalar",
    order: "free",
    names: words(`md5 md5_number sha1 sha256 hex to_hex unhex from_hex bin
      to_binary unbin from_binary to_base64 base64 from_base64 encode decode`),
  },
  {
    group: "time (UTC)",
    kind: "scalar",
    order: "free",
    names: words(`make_timestamp make_date epoch_ms epoch_us epoch_ns
      date_trunc datetrunc date_part datepart date_diff datediff date_sub
      datesub year month day dayofmonth dayofweek dayofyear isodow isoyear
      week weekofyear weekday yearweek quarter hour minute second millisecond
      microsecond last_day strftime strptime try_strptime dayname monthname
      century decade millennium era`),
  },
  {
    group: "lists and structs",
    kind: "scalar",
    order: "free",
    names: words(`list_value list_pack array_value list_extract list_element
      array_extract list_slice array_slice list_concat list_cat array_concat
      array_cat list_contains list_has array_contains array_has list_has_any
      list_has_all array_has_any array_has_all list_position list_indexof
      array_position array_indexof list_sort array_sort list_reverse_sort
      array_reverse_sort list_transform array_transform apply list_apply
      array_apply list_filter array_filter filter list_reduce array_reduce
      reduce array_length flatten list_zip array_zip list_unique array_unique
      list_where array_where list_select array_select list_resize array_resize
      list_reverse list_append array_append list_prepend array_prepend
      generate_series range struct_pack row struct_extract struct_extract_at
      unnest typeof`),
  },
  {
    group: "aggregates",
    kind: "aggregate",
    order: "free",
    names: words(`count count_star sum min max bool_and bool_or count_if
      countif bit_and bit_or bit_xor`),
  },
  {
    group: "aggregates decided by their key (ties checked)",
    kind: "aggregate",
    order: "ties",
    names: words(`arg_max arg_min argmax argmin max_by min_by arg_max_null
      arg_min_null arg_max_nulls_last arg_min_nulls_last mode`),
  },
  {
    group: "aggregates that need their own ORDER BY (ties checked)",
    kind: "aggregate",
    order: "ordered",
    names: words("first last list array_agg string_agg group_concat listagg"),
  },
  {
    group: "window functions",
    kind: "window",
    order: "free",
    names: words("rank dense_rank rank_dense"),
  },
  {
    group: "window functions that need ORDER BY (ties checked)",
    kind: "window",
    order: "ordered",
    names: words("row_number ntile lag lead first_value last_value nth_value"),
  },
  {
    group: "table functions",
    kind: "table",
    order: "free",
    names: words("range generate_series unnest"),
  },
];

/**
 * Types a value may have anywhere in a policy (alone, or inside a list,
 * array, struct, map or union). No DOUBLE or FLOAT: see `exactness`.
 */
export const ADMITTED_TYPES = new Set(
  words(`BOOLEAN TINYINT SMALLINT INTEGER BIGINT HUGEINT UTINYINT USMALLINT
    UINTEGER UBIGINT UHUGEINT DECIMAL BIGNUM VARCHAR BLOB DATE TIME TIMESTAMP
    TIMESTAMP_S TIMESTAMP_MS TIMESTAMP_NS LIST ARRAY STRUCT NULL`),
);

/**
 * Collations that compare no two different texts as equal (others, such as
 * nocase, make min, max and GROUP BY keep whichever of two "equal" texts
 * comes first).
 */
export const ADMITTED_COLLATIONS = new Set(words("binary"));

const byName = new Map<string, AdmittedGroup[]>();
for (const group of ADMITTED)
  for (const name of group.names)
    byName.set(name, [...(byName.get(name) ?? []), group]);

/** The groups `name` is admitted in (a name may be a scalar and a table function). */
export function admittedAs(name: string): AdmittedGroup[] {
  return byName.get(name.toLowerCase()) ?? [];
}

/** Names refused with a reason of their own, and what to write instead. */
const REFUSED: { names: string; hint: string; floating?: true }[] = [
  {
    names: "/",
    hint:
      "`/` divides in floating point, also between integers: use `//` (integer division, toward zero: a floor of values >= 0), or " +
      "multiply by a DECIMAL such as 0.25",
    floating: true,
  },
  {
    names: "avg mean favg",
    hint: "it is floating point: use sum(x) // count(*)",
    floating: true,
  },
  {
    names: `sqrt cbrt pow power ** ^ exp ln log log2 log10 pi sin cos tan asin acos
    atan atan2 degrees radians gamma lgamma even product fsum sumkahan
    kahan_sum median quantile quantile_cont mad stddev stddev_pop stddev_samp
    variance var_pop var_samp corr covar_pop covar_samp entropy kurtosis
    kurtosis_pop skewness sem regr_avgx regr_avgy regr_count regr_intercept
    regr_r2 regr_slope regr_sxx regr_sxy regr_syy percent_rank cume_dist fdiv
    fmod geomean geometric_mean wavg weighted_avg`,
    hint: "it computes in floating point: use integer arithmetic (x * x, //) or a DECIMAL",
    floating: true,
  },
  {
    names: "epoch to_seconds to_milliseconds quantile_disc",
    hint:
      "it takes or gives a DOUBLE: use epoch_ms(ts) // 1000 or block_time for seconds, row_number() " +
      "over (order by x, address) for a rank",
    floating: true,
  },
  {
    names: "to_timestamp",
    hint: "to_timestamp takes a DOUBLE: use make_timestamp(block_time * 1000000), exact",
    floating: true,
  },
  {
    names: `random setseed gen_random_uuid uuid uuidv4 uuidv7 nextval currval`,
    hint:
      "it gives another value on every run: derive what you need from the logs (sha256 of the " +
      "address, say)",
  },
  {
    names: `now today current_date current_time current_timestamp get_current_time
    get_current_timestamp transaction_timestamp current_localtime
    current_localtimestamp localtime localtimestamp age`,
    hint:
      "it reads this machine's clock: use the stage table's start_time and end_time, or a log's " +
      "block_time",
  },
  {
    names: `to_days to_hours to_minutes to_weeks to_months to_years
    to_microseconds time_bucket date_add`,
    hint:
      "it works in INTERVALs, of which 1 month equals 30 days: count seconds as integers (block_time " +
      "// 86400 for a day)",
  },
  {
    names: "any_value arbitrary",
    hint:
      "it returns whichever row the engine meets first: use min(x), or arg_min(x, (block_number, " +
      "tx_index, log_index)) for the first in chain order",
  },
  {
    names: `approx_count_distinct approx_quantile approx_top_k reservoir_quantile
    list_approx_count_distinct`,
    hint:
      "it is approximate: use count(distinct x), or an exact rank (row_number() over (order by x, " +
      "address))",
  },
  {
    names: "hash",
    hint: "its values differ between engine versions: use sha256(x) or md5_number(x)",
  },
  {
    names: `list_aggregate list_aggr array_aggregate array_aggr aggregate list_sum
    list_min list_max list_count list_first list_last list_any_value
    list_string_agg list_histogram list_mode list_median list_avg list_product
    list_bool_and list_bool_or list_bit_and list_bit_or list_bit_xor`,
    hint:
      "it runs an aggregate named by a string, which admission cannot read: unnest the list and " +
      "aggregate its rows",
  },
  {
    names: "error",
    hint:
      "a policy cannot raise its own errors: every row it returns is checked (a NULL score is named " +
      "with its address)",
  },
  {
    names: `current_setting getvariable version current_database current_schema
    current_schemas current_catalog current_user current_role session_user
    user current_query in_search_path pg_typeof`,
    hint: "it reads the engine's settings, not the chain",
  },
];

const refusedHints = new Map<string, string>();
for (const { names, hint } of REFUSED)
  for (const name of words(names)) refusedHints.set(name, hint);

/** Functions refused because they compute in floating point. */
const FLOATING_FUNCTIONS = new Set(
  REFUSED.filter((r) => r.floating).flatMap((r) => words(r.names)),
);

export function isFloatingFunction(name: string): boolean {
  return FLOATING_FUNCTIONS.has(name.toLowerCase());
}

/** Every name refused with a reason of its own. */
export function refusedNames(): string[] {
  return [...refusedHints.keys()];
}

/** Why `name` is not admitted, and what to write instead. */
export function refusalHint(name: string): string {
  const lower = name.toLowerCase();
  const known = refusedHints.get(lower);
  if (known !== undefined) return known;
  if (/^(read_|parquet_|sniff_|glob$|query|json_execute)/.test(lower))
    return "it reads files or runs other SQL: a policy reads its @source tables and stage, nothing else";
  if (/^(duckdb_|pragma_|enable_|disable_|pg_|icu_|which_secret)/.test(lower))
    return "it reads or changes the engine itself: a policy reads its @source tables and stage, nothing else";
  return (
    "it is not among the admitted functions (exact and deterministic ones, listed in the README " +
    'under "Admitted SQL")'
  );
}

/** Why a type is not admitted, and what to use instead. */
export function typeHint(id: string): string {
  if (id === "TIMESTAMP WITH TIME ZONE" || id === "TIME WITH TIME ZONE")
    return (
      "a time with a time zone depends on the machine's zone: use TIMESTAMP " +
      "(make_timestamp(block_time * 1000000) is UTC)"
    );
  if (id === "INTERVAL")
    return (
      "an INTERVAL of 1 month equals one of 30 days, so which of them a result keeps depends on the " +
      "order of rows: count seconds as integers (block_time, date_diff('second', a, b))"
    );
  if (id === "MAP" || id === "UNION")
    return `a ${id} holds values that compare as equal yet differ: use a STRUCT or a LIST`;
  return (
    `type ${id === "UNBOUND" ? "named here" : id} is not admitted: use integers, DECIMAL, VARCHAR, ` +
    `BOOLEAN, BLOB, DATE, TIMESTAMP, or lists and structs of them`
  );
}
