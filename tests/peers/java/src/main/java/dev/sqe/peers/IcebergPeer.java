package dev.sqe.peers;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SchemaParser;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

/**
 * The Java reference side of SQE's Iceberg interop tests: Iceberg's own JdbcCatalog, generic
 * readers and Parquet writer, driven from the command line, printing JSON on stdout (logs go to
 * stderr). Subcommands:
 *
 * <ul>
 *   <li>{@code jdbc-list --uri URI [--user U --password P] --catalog NAME --warehouse DIR}: every
 *       namespace and table the JdbcCatalog sees, each loaded (schema, current snapshot, rows);
 *   <li>{@code jdbc-create ... --table NS.NAME --rows N}: creates the namespace (if missing) and a
 *       table (id long, name string, score double) and appends N rows as two data files;
 *   <li>{@code scan ... --table NS.NAME}: one table's rows as Iceberg Java reads them;
 *   <li>{@code write-deletes ... --table NS.NAME --rows N --format-version 2|3}: creates a table
 *       like jdbc-create, then deletes rows the way Iceberg Java writers do: position deletes of
 *       the first data file (a Parquet position delete file in v2, a deletion vector in a Puffin
 *       file in v3) and an equality delete file on id, committed as row deltas; prints the table
 *       (rows with the deletes applied) and the delete files.
 * </ul>
 */
public final class IcebergPeer {
  private static final ObjectMapper JSON = new ObjectMapper();

  private IcebergPeer() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0) usage("no subcommand");
    Map<String, String> opts = new HashMap<>();
    for (int i = 1; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) usage("bad argument " + args[i]);
      opts.put(args[i].substring(2), args[++i]);
    }
    ObjectNode out;
    try (JdbcCatalog catalog = openCatalog(opts)) {
      switch (args[0]) {
        case "jdbc-list" -> out = list(catalog);
        case "jdbc-create" -> out = create(catalog, require(opts, "table"),
            Integer.parseInt(opts.getOrDefault("rows", "10")));
        case "scan" -> out = describe(catalog.loadTable(parseTable(require(opts, "table"))));
        case "write-deletes" -> out = writeDeletes(catalog, require(opts, "table"),
            Integer.parseInt(opts.getOrDefault("rows", "20")),
            Integer.parseInt(opts.getOrDefault("format-version", "2")));
        default -> {
          usage("unknown subcommand " + args[0]);
          return;
        }
      }
    }
    System.out.println(JSON.writeValueAsString(out));
  }

  private static void usage(String why) {
    System.err.println("IcebergPeer: " + why + "\nusage: IcebergPeer jdbc-list|jdbc-create|scan|write-deletes"
        + " --uri JDBC_URI [--user U --password P] --catalog NAME --warehouse DIR"
        + " [--table NS.NAME] [--rows N]");
    System.exit(2);
  }

  private static String require(Map<String, String> opts, String key) {
    String v = opts.get(key);
    if (v == null) usage("--" + key + " is required");
    return v;
  }

  private static JdbcCatalog openCatalog(Map<String, String> opts) {
    Map<String, String> props = new HashMap<>();
    props.put(CatalogProperties.URI, require(opts, "uri"));
    props.put(CatalogProperties.WAREHOUSE_LOCATION, require(opts, "warehouse"));
    if (opts.containsKey("user")) props.put("jdbc.user", opts.get("user"));
    if (opts.containsKey("password")) props.put("jdbc.password", opts.get("password"));
    props.put("jdbc.schema-version", "V1");
    JdbcCatalog catalog = new JdbcCatalog();
    catalog.setConf(new Configuration());
    catalog.initialize(opts.getOrDefault("catalog", "iceberg"), props);
    return catalog;
  }

  private static TableIdentifier parseTable(String name) {
    int dot = name.lastIndexOf('.');
    if (dot <= 0) usage("table '" + name + "' needs a namespace (ns.table)");
    return TableIdentifier.of(Namespace.of(name.substring(0, dot).split("\\.")),
        name.substring(dot + 1));
  }

  private static ObjectNode list(JdbcCatalog catalog) throws IOException {
    ObjectNode out = JSON.createObjectNode();
    ArrayNode namespaces = out.putArray("namespaces");
    ArrayNode tables = out.putArray("tables");
    List<Namespace> todo = new ArrayList<>(catalog.listNamespaces());
    while (!todo.isEmpty()) {
      Namespace ns = todo.remove(0);
      namespaces.add(ns.toString());
      todo.addAll(catalog.listNamespaces(ns));
      for (TableIdentifier id : catalog.listTables(ns)) {
        tables.add(describe(catalog.loadTable(id)));
      }
    }
    return out;
  }

  private static ObjectNode create(JdbcCatalog catalog, String name, int rows) throws IOException {
    TableIdentifier id = parseTable(name);
    if (!catalog.namespaceExists(id.namespace())) catalog.createNamespace(id.namespace());
    Schema schema = new Schema(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "name", Types.StringType.get()),
        Types.NestedField.optional(3, "score", Types.DoubleType.get()));
    Table table = catalog.createTable(id, schema, PartitionSpec.unpartitioned());
    var append = table.newAppend();
    int half = rows / 2;
    append.appendFile(writeFile(table, 0, half));
    append.appendFile(writeFile(table, half, rows - half));
    append.commit();
    table.refresh();
    return describe(table);
  }

  private static ObjectNode writeDeletes(JdbcCatalog catalog, String name, int rows,
      int formatVersion) throws IOException {
    TableIdentifier id = parseTable(name);
    if (!catalog.namespaceExists(id.namespace())) catalog.createNamespace(id.namespace());
    Schema schema = new Schema(
        Types.NestedField.required(1, "id", Types.LongType.get()),
        Types.NestedField.optional(2, "name", Types.StringType.get()),
        Types.NestedField.optional(3, "score", Types.DoubleType.get()));
    Table table = catalog.createTable(id, schema, PartitionSpec.unpartitioned(), null,
        Map.of("format-version", Integer.toString(formatVersion)));
    int half = rows / 2;
    DataFile first = writeFile(table, 0, half);
    DataFile second = writeFile(table, half, rows - half);
    table.newAppend().appendFile(first).appendFile(second).commit();

    // Positions 1 and 3 of the first file (ids 1 and 3); position 0 of the second (id half).
    List<org.apache.iceberg.DeleteFile> positionDeletes = new ArrayList<>();
    if (formatVersion >= 3) {
      OutputFileFactory files = OutputFileFactory.builderFor(table, 1, 1)
          .format(org.apache.iceberg.FileFormat.PUFFIN).build();
      BaseDVFileWriter dvs = new BaseDVFileWriter(files, path -> null);
      try (dvs) {
        dvs.delete(first.location(), 1, table.spec(), null);
        dvs.delete(first.location(), 3, table.spec(), null);
        dvs.delete(second.location(), 0, table.spec(), null);
      }
      positionDeletes.addAll(dvs.result().deleteFiles());
    } else {
      String path = table.locationProvider().newDataLocation("java-pos-" + UUID.randomUUID() + ".parquet");
      PositionDeleteWriter<Record> writer = Parquet.writeDeletes(table.io().newOutputFile(path))
          .withSpec(table.spec()).setAll(table.properties()).overwrite().buildPositionWriter();
      try (writer) {
        PositionDelete<Record> delete = PositionDelete.create();
        writer.write(delete.set(first.location(), 1));
        writer.write(delete.set(first.location(), 3));
        writer.write(delete.set(second.location(), 0));
      }
      positionDeletes.add(writer.toDeleteFile());
    }
    var positions = table.newRowDelta();
    for (org.apache.iceberg.DeleteFile f : positionDeletes) positions.addDeletes(f);
    positions.commit();

    // Equality deletes on id: the last row, and a row also deleted by position (id 1).
    Schema idSchema = table.schema().select("id");
    String eqPath = table.locationProvider().newDataLocation("java-eq-" + UUID.randomUUID() + ".parquet");
    EqualityDeleteWriter<Record> eq = Parquet.writeDeletes(table.io().newOutputFile(eqPath))
        .forTable(table).withSpec(table.spec()).rowSchema(idSchema).equalityFieldIds(1)
        .createWriterFunc(GenericParquetWriter::create).overwrite().buildEqualityWriter();
    try (eq) {
      GenericRecord key = GenericRecord.create(idSchema);
      eq.write(key.copy(Map.of("id", (long) rows - 1)));
      eq.write(key.copy(Map.of("id", 1L)));
    }
    table.newRowDelta().addDeletes(eq.toDeleteFile()).commit();
    table.refresh();

    ObjectNode out = describe(table);
    ArrayNode deletes = out.putArray("delete_files");
    for (org.apache.iceberg.DeleteFile f : positionDeletes) deletes.add(describeDelete(f));
    deletes.add(describeDelete(eq.toDeleteFile()));
    return out;
  }

  private static ObjectNode describeDelete(org.apache.iceberg.DeleteFile f) {
    ObjectNode d = JSON.createObjectNode();
    d.put("path", f.location());
    d.put("content", f.content().name());
    d.put("format", f.format().name());
    d.put("record_count", f.recordCount());
    if (f.referencedDataFile() != null) d.put("referenced_data_file", f.referencedDataFile());
    return d;
  }

  private static DataFile writeFile(Table table, int first, int count) throws IOException {
    String path = table.locationProvider().newDataLocation("java-" + UUID.randomUUID() + ".parquet");
    DataWriter<Record> writer = Parquet.writeData(table.io().newOutputFile(path))
        .schema(table.schema())
        .createWriterFunc(GenericParquetWriter::create)
        .withSpec(table.spec())
        .overwrite()
        .build();
    try (writer) {
      GenericRecord record = GenericRecord.create(table.schema());
      for (long i = first; i < first + count; i++) {
        writer.write(record.copy(Map.of("id", i, "name", "java-" + i, "score", i * 0.25)));
      }
    }
    return writer.toDataFile();
  }

  /** A table as Java sees it: schema, current snapshot, row count and rows (as JSON values). */
  private static ObjectNode describe(Table table) throws IOException {
    ObjectNode out = JSON.createObjectNode();
    out.put("name", table.name().replaceFirst("^[^.]*\\.", ""));
    out.put("metadata_location",
        ((org.apache.iceberg.HasTableOperations) table).operations().current().metadataFileLocation());
    out.put("format_version",
        ((org.apache.iceberg.HasTableOperations) table).operations().current().formatVersion());
    out.set("schema", JSON.readTree(SchemaParser.toJson(table.schema())));
    Snapshot current = table.currentSnapshot();
    if (current == null) {
      out.putNull("snapshot_id");
    } else {
      out.put("snapshot_id", current.snapshotId());
    }
    ArrayNode rows = out.putArray("rows");
    long count = 0;
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record r : records) {
        ObjectNode row = rows.addObject();
        for (Types.NestedField f : table.schema().columns()) {
          putValue(row, f.name(), r.getField(f.name()));
        }
        count++;
      }
    }
    out.put("row_count", count);
    return out;
  }

  private static void putValue(ObjectNode row, String name, Object v) {
    if (v == null) {
      row.putNull(name);
    } else if (v instanceof Long l) {
      row.put(name, l);
    } else if (v instanceof Integer i) {
      row.put(name, i);
    } else if (v instanceof Double d) {
      row.put(name, d);
    } else if (v instanceof Float f) {
      row.put(name, f);
    } else if (v instanceof Boolean b) {
      row.put(name, b);
    } else if (v instanceof BigDecimal d) {
      row.put(name, d.toPlainString());
    } else if (v instanceof ByteBuffer b) {
      StringBuilder hex = new StringBuilder();
      ByteBuffer dup = b.duplicate();
      while (dup.hasRemaining()) hex.append(String.format("%02x", dup.get()));
      row.put(name, hex.toString());
    } else {
      row.put(name, v.toString());  // strings, dates, times, timestamps (ISO-8601), UUIDs
    }
  }
}
