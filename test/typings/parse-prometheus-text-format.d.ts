// The package ships no types; this is the shape its README documents (prom2json's).
declare module "parse-prometheus-text-format" {
  export interface MetricFamily {
    name: string;
    help: string;
    type: "COUNTER" | "GAUGE" | "SUMMARY" | "HISTOGRAM" | "UNTYPED";
    metrics: { value?: string; labels?: Record<string, string> }[];
  }
  export default function parsePrometheusTextFormat(
    text: string,
  ): MetricFamily[];
}
