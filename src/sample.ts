import type { Source } from "./core/index.js";

/**
 * A small, realistic request for demos and tests: a fictional company's annual summary (paragraphs
 * and a markdown table of revenue by quarter) and its fact sheet. The local model answers
 * `sampleQuestion` from it with grounded sentences, and extracts every field of `sampleSchema`.
 */
export const sampleSources: Source[] = [
  {
    id: "annual-report-2024",
    text: `# Northwind Analytics — 2024 annual summary

Northwind Analytics makes demand-forecasting software for mid-sized grocery chains. It was founded in 2016 in Lyon and ended the year with 240 employees.

Revenue for 2024 was $18.4 million, a growth of 22% over 2023. Most of the growth came from the Cloud plan, launched in March, which now brings in 61% of revenue. The strongest quarter was Q4, with revenue of $5.6 million and an operating profit of $1.1 million.

Operating costs rose more slowly than revenue, so the operating margin improved from 9% in 2023 to 16% in 2024. The company plans to open an office in Madrid in 2025.

| Quarter | Revenue ($M) | Operating profit ($M) |
|---|---|---|
| Q1 2024 | 3.9 | 0.4 |
| Q2 2024 | 4.2 | 0.6 |
| Q3 2024 | 4.7 | 0.8 |
| Q4 2024 | 5.6 | 1.1 |
`,
  },
  {
    id: "fact-sheet",
    text: `Northwind Analytics — fact sheet

- Legal name: Northwind Analytics SAS
- Chief executive: Amélie Durand
- Headquarters: Lyon, France
- Employees: 240
- Main product: Northwind Forecast (Cloud and On-premise plans)
`,
  },
];

/** A question the sample answers in two to three grounded sentences. */
export const sampleQuestion =
  "What was Northwind's revenue growth in 2024, and which quarter was the strongest?";

/** Fields the sample answers for extract: name → description. */
export const sampleSchema: Record<string, string> = {
  company_name: "the company's legal name",
  ceo: "name of the chief executive",
  headquarters: "city and country of the head office",
  employee_count: "number of employees",
};
