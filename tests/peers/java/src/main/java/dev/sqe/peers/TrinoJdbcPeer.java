package dev.sqe.peers;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trino.jdbc.TrinoConnection;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.Properties;

/**
 * SQE's Trino HTTP port driven by the Trino JDBC driver (io.trino:trino-jdbc, what DBeaver and
 * DataGrip use for Trino) with plain JDBC calls. Every step of a fixed scenario runs on its own
 * and lands in one JSON object on stdout, as its result or as {"error": ...}, so the Python
 * test (tests/integration/test_trino_jdbc.py) can say which step broke.
 *
 * <p>Usage: TrinoJdbcPeer --port PORT --user USER [--schema NAME]. The server runs with the
 * anonymous provider: the driver sends credentials only over TLS, and this port is plaintext.
 * Steps: DDL and INSERT, DatabaseMetaData (catalogs, schemas, tables, columns, table types,
 * type info), a query of every type, PreparedStatements (PREPARE/EXECUTE and EXECUTE
 * IMMEDIATE), setCatalog/setSchema and USE, a syntax error, manual commit and rollback, a
 * session property and the spooling encoding request.
 */
public final class TrinoJdbcPeer {
  private static final ObjectMapper JSON = PeerSteps.JSON;

  private TrinoJdbcPeer() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = PeerSteps.options(args);
    String port = opts.get("port");
    String user = opts.getOrDefault("user", "dev");
    String schema = opts.getOrDefault("schema", "jdbc_peer");
    String base = "jdbc:trino://127.0.0.1:" + port;

    ObjectNode out = JSON.createObjectNode();
    Properties props = new Properties();
    props.setProperty("user", user);
    props.setProperty("SSL", "false");
    try (Connection conn = DriverManager.getConnection(base + "/iceberg", props)) {
      out.put("connected", true);
      scenario(out, conn, schema);
    }
    step(out, "execute_immediate", () -> {
      Properties p = (Properties) props.clone();
      p.setProperty("explicitPrepare", "false");
      try (Connection c = DriverManager.getConnection(base + "/iceberg/" + schema, p);
          PreparedStatement ps = c.prepareStatement("SELECT name FROM items WHERE id = ?")) {
        ps.setLong(1, 2);
        return rows(ps.executeQuery());
      }
    });
    step(out, "encoding_json", () -> {
      Properties p = (Properties) props.clone();
      p.setProperty("encoding", "json");
      try (Connection c = DriverManager.getConnection(base + "/iceberg/" + schema, p);
          Statement s = c.createStatement()) {
        return rows(s.executeQuery("SELECT id, name FROM items ORDER BY id"));
      }
    });
    step(out, "catalog_schema_in_url", () -> {
      try (Connection c = DriverManager.getConnection(base + "/iceberg/" + schema, props);
          Statement s = c.createStatement()) {
        ObjectNode o = JSON.createObjectNode();
        o.put("catalog", c.getCatalog());
        o.put("schema", c.getSchema());
        o.set("rows", rows(s.executeQuery("SELECT count(*) FROM items")));
        return o;
      }
    });
    System.out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(out));
  }

  private static void scenario(ObjectNode out, Connection conn, String schema) {
    step(out, "setup", () -> {
      try (Statement s = conn.createStatement()) {
        s.execute("CREATE SCHEMA IF NOT EXISTS iceberg." + schema);
        s.execute("CREATE TABLE iceberg." + schema + ".items (id bigint, name varchar, "
            + "price decimal(10,2), qty integer, ok boolean, day date, "
            + "at timestamp(6), score double)");
        return s.executeUpdate("INSERT INTO iceberg." + schema + ".items VALUES "
            + "(1, 'apple', 1.25, 3, true, DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05.123456', 0.5), "
            + "(2, 'pear', 2.50, 4, false, DATE '2024-02-29', TIMESTAMP '2024-02-29 23:59:59', 1.5), "
            + "(3, 'fig', NULL, NULL, NULL, NULL, NULL, NULL)");
      }
    });
    DatabaseMetaData meta;
    try {
      meta = conn.getMetaData();
    } catch (SQLException e) {
      out.set("metadata", error(e));
      return;
    }
    step(out, "product", () -> {
      ObjectNode o = JSON.createObjectNode();
      o.put("name", meta.getDatabaseProductName());
      o.put("version", meta.getDatabaseProductVersion());
      return o;
    });
    step(out, "catalogs", () -> column(meta.getCatalogs(), "TABLE_CAT"));
    step(out, "schemas", () -> rows(meta.getSchemas("iceberg", null)));
    step(out, "schemas_like", () -> rows(meta.getSchemas("iceberg", schema.substring(0, 4) + "%")));
    step(out, "tables", () -> rows(meta.getTables("iceberg", schema, "%", null)));
    step(out, "tables_typed", () -> rows(meta.getTables("iceberg", schema, "it_ms", new String[] {"TABLE"})));
    step(out, "tables_system_jdbc", () -> rows(meta.getTables("system", "jdbc", "t%", null)));
    step(out, "table_types", () -> column(meta.getTableTypes(), "TABLE_TYPE"));
    step(out, "columns", () -> {
      ArrayNode list = JSON.createArrayNode();
      try (ResultSet rs = meta.getColumns("iceberg", schema, "items", "%")) {
        while (rs.next()) {
          ObjectNode c = JSON.createObjectNode();
          for (String name : new String[] {"TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME",
                   "TYPE_NAME", "IS_NULLABLE"}) {
            c.put(name, rs.getString(name));
          }
          for (String name : new String[] {"DATA_TYPE", "COLUMN_SIZE", "DECIMAL_DIGITS",
                   "NUM_PREC_RADIX", "ORDINAL_POSITION", "NULLABLE"}) {
            int v = rs.getInt(name);
            if (rs.wasNull()) {
              c.putNull(name);
            } else {
              c.put(name, v);
            }
          }
          list.add(c);
        }
      }
      return list;
    });
    step(out, "columns_pattern", () -> column(meta.getColumns("iceberg", schema, "items", "p%"), "COLUMN_NAME"));
    step(out, "type_info", () -> {
      ObjectNode o = JSON.createObjectNode();
      try (ResultSet rs = meta.getTypeInfo()) {
        while (rs.next()) o.put(rs.getString("TYPE_NAME"), rs.getInt("DATA_TYPE"));
      }
      return o;
    });
    step(out, "empty_metadata", () -> {
      ObjectNode o = JSON.createObjectNode();
      o.put("procedures", count(meta.getProcedures(null, null, null)));
      o.put("udts", count(meta.getUDTs(null, null, null, null)));
      o.put("super_tables", count(meta.getSuperTables(null, null, null)));
      o.put("super_types", count(meta.getSuperTypes(null, null, null)));
      o.put("attributes", count(meta.getAttributes(null, null, null, null)));
      o.put("pseudo_columns", count(meta.getPseudoColumns(null, null, null, null)));
      o.put("primary_keys", count(meta.getPrimaryKeys("iceberg", schema, "items")));
      return o;
    });
    step(out, "every_type", () -> {
      try (Statement s = conn.createStatement();
          ResultSet rs = s.executeQuery("SELECT true AS b, CAST(1 AS tinyint) AS ti, "
              + "CAST(2 AS smallint) AS si, 3 AS i, CAST(4 AS bigint) AS bi, CAST(1.5 AS real) AS r, "
              + "CAST(2.25 AS double) AS d, CAST(12.3 AS decimal(10,2)) AS dec, 'héllo' AS v, "
              + "X'0102' AS vb, DATE '2024-02-29' AS dt, TIME '13:45:00.5' AS tm, "
              + "TIMESTAMP '2024-02-29 13:45:00.123456' AS ts, "
              + "CAST(TIMESTAMP '2024-02-29 13:45:00' AS timestamp(6) with time zone) AS tstz, "
              + "ARRAY[1, 2] AS arr, "
              + "CAST(NULL AS bigint) AS n, UUID '123e4567-e89b-12d3-a456-426614174000' AS u")) {
        ResultSetMetaData md = rs.getMetaData();
        ObjectNode o = JSON.createObjectNode();
        if (!rs.next()) return "no row";
        for (int c = 1; c <= md.getColumnCount(); c++) {
          ObjectNode col = JSON.createObjectNode();
          col.put("type", md.getColumnTypeName(c));
          col.put("jdbc_type", md.getColumnType(c));
          Object v = rs.getObject(c);
          col.put("class", v == null ? null : v.getClass().getSimpleName());
          col.put("value", render(v));
          o.set(md.getColumnLabel(c), col);
        }
        return o;
      }
    });
    step(out, "prepared", () -> {
      try (PreparedStatement ps = conn.prepareStatement(
               "SELECT id, name FROM iceberg." + schema + ".items WHERE id >= ? AND name <> ? ORDER BY id")) {
        ObjectNode o = JSON.createObjectNode();
        ps.setLong(1, 1);
        ps.setString(2, "pear");
        o.set("first", rows(ps.executeQuery()));
        ps.setLong(1, 2);
        ps.setString(2, "it's");
        o.set("second", rows(ps.executeQuery()));
        return o;
      }
    });
    step(out, "prepared_insert", () -> {
      try (PreparedStatement ps = conn.prepareStatement(
               "INSERT INTO iceberg." + schema + ".items (id, name) VALUES (?, ?)")) {
        ps.setLong(1, 4);
        ps.setString(2, "kiwi");
        return ps.executeUpdate();
      }
    });
    step(out, "set_catalog_schema", () -> {
      conn.setCatalog("iceberg");
      conn.setSchema(schema);
      try (Statement s = conn.createStatement()) {
        ObjectNode o = JSON.createObjectNode();
        o.set("rows", rows(s.executeQuery("SELECT count(*) FROM items")));
        o.put("catalog", conn.getCatalog());
        o.put("schema", conn.getSchema());
        return o;
      }
    });
    step(out, "use_statement", () -> {
      try (Statement s = conn.createStatement()) {
        s.execute("CREATE SCHEMA IF NOT EXISTS iceberg." + schema + "_other");
        s.execute("USE iceberg." + schema + "_other");
        ObjectNode o = JSON.createObjectNode();
        o.put("schema", conn.getSchema());
        o.set("current", rows(s.executeQuery("SELECT current_schema")));
        s.execute("USE " + schema);
        o.put("schema_after", conn.getSchema());
        return o;
      }
    });
    step(out, "syntax_error", () -> {
      try (Statement s = conn.createStatement()) {
        s.executeQuery("SELECT id,\n  FROM items");
        return "no error";
      }
    });
    step(out, "missing_table", () -> {
      try (Statement s = conn.createStatement()) {
        s.executeQuery("SELECT * FROM no_such_table");
        return "no error";
      }
    });
    step(out, "transaction", () -> {
      ObjectNode o = JSON.createObjectNode();
      conn.setAutoCommit(false);
      try (Statement s = conn.createStatement()) {
        o.set("inside", rows(s.executeQuery("SELECT count(*) FROM items")));
        conn.commit();
        o.set("after_commit", rows(s.executeQuery("SELECT 1")));
        conn.rollback();
      } finally {
        conn.setAutoCommit(true);
      }
      o.put("autocommit", conn.getAutoCommit());
      return o;
    });
    step(out, "session_property", () -> {
      conn.unwrap(TrinoConnection.class).setSessionProperty("query_max_run_time", "123");
      try (Statement s = conn.createStatement();
          ResultSet rs = s.executeQuery("SHOW SESSION LIKE 'query_max_run_time'")) {
        return rs.next() ? rs.getString(2) : null;
      }
    });
    step(out, "system_functions", () -> {
      try (Statement s = conn.createStatement()) {
        return rows(s.executeQuery("SELECT current_user, current_timezone(), version() IS NOT NULL"));
      }
    });
    step(out, "runtime", () -> {
      try (Statement s = conn.createStatement()) {
        ObjectNode o = JSON.createObjectNode();
        o.set("nodes", rows(s.executeQuery("SELECT coordinator, state FROM system.runtime.nodes")));
        o.set("queries", rows(s.executeQuery(
            "SELECT count(*) > 0 FROM system.runtime.queries WHERE query LIKE 'SELECT count(*) FROM items%'")));
        return o;
      }
    });
  }

  private static String render(Object v) throws SQLException {
    if (v == null) return null;
    if (v instanceof byte[] b) return HexFormat.of().formatHex(b);
    if (v instanceof Array a) return Arrays.toString((Object[]) a.getArray());
    return v.toString();
  }

  private static int count(ResultSet rs) throws SQLException {
    int n = 0;
    try (rs) {
      while (rs.next()) n++;
    }
    return n;
  }

  private static ArrayNode column(ResultSet rs, String name) throws SQLException {
    ArrayNode list = JSON.createArrayNode();
    try (rs) {
      while (rs.next()) list.add(rs.getString(name));
    }
    return list;
  }

  /** Every row as an array of strings (getString), NULL as JSON null. */
  private static ArrayNode rows(ResultSet rs) throws SQLException {
    ArrayNode list = JSON.createArrayNode();
    try (rs) {
      int n = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        ArrayNode row = JSON.createArrayNode();
        for (int c = 1; c <= n; c++) row.add(rs.getString(c));
        list.add(row);
      }
    }
    return list;
  }

  private static ObjectNode error(Throwable e) {
    ObjectNode o = JSON.createObjectNode();
    o.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
    if (e instanceof SQLException s) {
      o.put("error_code", s.getErrorCode());
      o.put("sql_state", s.getSQLState());
    }
    if (e.getCause() != null) o.put("cause", String.valueOf(e.getCause()));
    return o;
  }

  private static void step(ObjectNode out, String name, PeerSteps.Step step) {
    PeerSteps.step(out, name, step, TrinoJdbcPeer::error);
  }
}
