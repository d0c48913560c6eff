/**
 * The SQLite export: a sink of the timeline's walk into a database in Nsight Systems' export
 * schema (3.25.0, with the 2.9.1 tables readers still join), so SQL written for
 * {@code nsys export --type sqlite} runs on it; docs/sqlite.md lists the tables and what each
 * column holds.
 *
 * <p>The pieces, in the order {@link dev.vprof.export.sqlite.SqliteWriter} runs them: the schema
 * ({@code NsysSchema}: Nsight Systems' tables from the fact file derived from the real exports in
 * fixtures/real, and vprof's {@code VPROF_} tables), created empty by SQLite; the walk's rows
 * ({@code ActivityRows}) written as B-tree pages in SQLite's file format ({@code Row} records,
 * {@code Varint}s, {@code TableBTree} per table, {@code SqliteFile} for the pages and the header);
 * then, through SQLite again, the small tables: processes, threads and streams
 * ({@code ProcessTables}, with {@code ThreadIds} packing each thread into a globalTid), GPUs
 * ({@code GpuTable}), the enum tables ({@code NsysEnums}), the file's and the capture's facts
 * ({@code MetaTables}), vprof's requests, spans, metrics and drops ({@code VprofTables}), and every
 * string last ({@code StringIds}).
 */
package dev.vprof.export.sqlite;
