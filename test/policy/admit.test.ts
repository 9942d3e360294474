import { expect } from "chai";

import { admit } from "../../tasks/policy/admit.js";
import { boundPlanRefusals } from "../../tasks/policy/bound-plan.js";
import type { EnginePolicy } from "../../tasks/policy/engine-policy.js";

// The admission's rules on trees written by hand, as DuckDB 1.5 serializes
// them: what the engine has not been seen to give (a field, a kind) is
// refused, not let through.
const POLICY: EnginePolicy = {
  file: "p.sql",
  sql: "-- @policy p\nselect address, score from trades",
  sources: [
    {
      table: "trades",
      id: "abc",
      line: 1,
      address: "0x00",
      event: "Trade()",
      columns: [],
      columnTypes: [],
    },
  ],
};
const AT = POLICY.sql.indexOf("select");

function selectNode(extra: Record<string, unknown> = {}) {
  return {
    node: {
      type: "SELECT_NODE",
      modifiers: [],
      cte_map: { map: [] },
      select_list: [
        {
          class: "COLUMN_REF",
          type: "COLUMN_REF",
          alias: "",
          query_location: AT + 7,
          column_names: ["address"],
        },
      ],
      from_table: {
        type: "BASE_TABLE",
        alias: "",
        sample: null,
        query_location: AT + 31,
        schema_name: "",
        table_name: "trades",
        column_name_alias: [],
        catalog_name: "",
        at_clause: null,
      },
      where_clause: null,
      group_expressions: [],
      group_sets: [],
      aggregate_handling: "STANDARD_HANDLING",
      having: null,
      sample: null,
      qualify: null,
      ...extra,
    },
  };
}

describe("the admission's walk of the parse tree", () => {
  it("admits a plain SELECT of the policy's own table", () => {
    expect(admit(POLICY, selectNode())).to.deep.equal({
      refused: [],
      undecided: [],
    });
  });

  it("refuses a field it does not know that holds something, and lets an empty one pass", () => {
    const { refused } = admit(POLICY, selectNode({ frobnicate: { on: true } }));
    expect(refused.map((c) => c.hint)).to.deep.equal([
      "admission does not know frobnicate of query SELECT_NODE",
    ]);
    expect(admit(POLICY, selectNode({ later: [] })).refused).to.deep.equal([]);
  });

  it("refuses a kind of node it does not know", () => {
    const { refused } = admit(
      POLICY,
      selectNode({
        where_clause: { class: "DEFAULT", type: "VALUE_DEFAULT", alias: "" },
      }),
    );
    expect(refused.map((c) => c.hint)).to.deep.equal([
      "admission does not know expression DEFAULT",
    ]);
  });
});

describe("the bound plan's second look", () => {
  const reads = () => false;
  it("refuses a catalog view the binder resolved, an unstable function, and a type that came in", () => {
    const plan = [
      {
        type: "LOGICAL_PROJECTION",
        expressions: [
          {
            expression_class: "BOUND_FUNCTION",
            name: "current_date",
            query_location: AT,
            return_type: { id: "DATE" },
          },
          {
            expression_class: "BOUND_FUNCTION",
            name: "-",
            query_location: AT + 7,
            return_type: { id: "INTERVAL" },
            children: [
              {
                expression_class: "BOUND_REF",
                return_type: { id: "TIMESTAMP" },
              },
            ],
          },
        ],
        children: [
          {
            type: "LOGICAL_GET",
            name: "duckdb_settings",
            function_data: {},
            children: [],
          },
        ],
      },
    ];
    const hints = boundPlanRefusals(POLICY, plan, {
      unstable: new Set(["current_date"]),
      reads,
    }).map((c) => c.hint);
    expect(hints).to.have.length(3);
    expect(hints[0]).to.match(/^current_date: it reads this machine's clock/);
    expect(hints[1]).to.match(/^an INTERVAL of 1 month equals one of 30 days/);
    expect(hints[2]).to.match(/^the policy reads duckdb_settings\(…\)/);
  });
});
