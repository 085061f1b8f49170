package dev.sqe.peers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Map;

/**
 * SQE's Flight SQL port driven by the Arrow Flight SQL JDBC driver (the driver DBeaver,
 * DataGrip and Tableau use) with nothing but plain JDBC calls. Each step of a fixed scenario
 * runs on its own and is recorded in one JSON object on stdout, either as its result or as
 * {"error": ...}, so the Python test can say exactly which step a server change broke.
 *
 * <p>Usage: FlightSqlJdbcPeer --port PORT --user USER --password PASSWORD --wrong-password P
 * [--schema NAME] [--tls-root-certs CA.pem [--client-cert C.pem --client-key K.pem]], or with
 * {@code --mode check} only a connection (without credentials) and one query. The steps: connecting with a wrong password and with no credentials (both
 * refused), then as USER: DatabaseMetaData (product, catalogs, schemas, tables, columns, table
 * types, type info), DDL and an INSERT through executeUpdate, a query of every column type, a
 * PreparedStatement run twice with different bound parameters, a parameterised INSERT, and the
 * rows read back.
 */
public final class FlightSqlJdbcPeer {
  private static final ObjectMapper JSON = PeerSteps.JSON;

  private FlightSqlJdbcPeer() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> opts = PeerSteps.options(args);
    String port = require(opts, "port");
    String base = "jdbc:arrow-flight-sql://127.0.0.1:" + port + "/?useEncryption=false";
    if (opts.containsKey("tls-root-certs")) {
      base = "jdbc:arrow-flight-sql://localhost:" + port + "/?useEncryption=true&tlsRootCerts="
          + opts.get("tls-root-certs");
      if (opts.containsKey("client-cert")) {
        base += "&clientCertificate=" + opts.get("client-cert") + "&clientKey="
            + require(opts, "client-key");
      }
    }
    if (opts.getOrDefault("mode", "scenario").equals("check")) {
      String url = base;
      ObjectNode out = JSON.createObjectNode();
      step(out, "check", () -> {
        try (Connection c = DriverManager.getConnection(url)) {
          return query(c, "SELECT 42 AS answer").get("rows");
        }
      });
      System.out.println(JSON.writeValueAsString(out));
      return;
    }
    String user = require(opts, "user");
    String password = require(opts, "password");
    String wrong = require(opts, "wrong-password");
    String schema = opts.getOrDefault("schema", "jdbc_peer");
    String plain = base;

    ObjectNode out = JSON.createObjectNode();
    step(out, "connect_wrong_password", () -> {
      try (Connection c = DriverManager.getConnection(url(plain, user, wrong))) {
        return "connected";
      }
    });
    step(out, "connect_without_credentials", () -> {
      try (Connection c = DriverManager.getConnection(plain)) {
        c.createStatement().executeQuery("SELECT 1").close();
        return "connected";
      }
    });
    try (Connection conn = DriverManager.getConnection(url(plain, user, password))) {
      out.put("connected", true);
      scenario(out, conn, schema);
    }
    // The `catalog` connection property (the driver has no schema property): the driver
    // sends SetSessionOptions{catalog} on connect and carries the session cookie after it.
    // Driver 18.3.0 shuts its channel before the CloseSession it sends on close(), so close()
    // throws "Channel shutdown invoked" (client side): recorded apart from the query's rows.
    step(out, "session_catalog", () -> {
      String scoped = url(plain, user, password) + "&catalog=iceberg";
      Connection c = DriverManager.getConnection(scoped);
      Object rows = query(c, "SELECT count(*) AS n FROM " + schema + ".items").get("rows");
      try {
        c.close();
      } catch (SQLException e) {
        System.err.println("session_catalog: close() failed in the driver: " + e.getMessage());
      }
      return rows;
    });
    step(out, "session_unknown_catalog", () -> {
      String scoped = url(plain, user, password) + "&catalog=no_such_catalog";
      try (Connection c = DriverManager.getConnection(scoped)) {
        return query(c, "SELECT 1 AS one").get("rows");
      }
    });
    System.out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(out));
  }

  private static void scenario(ObjectNode out, Connection conn, String schema) {
    DatabaseMetaData meta;
    try {
      meta = conn.getMetaData();
    } catch (SQLException e) {
      out.set("metadata", error(e));
      return;
    }
    step(out, "product", () -> {
      ObjectNode p = JSON.createObjectNode();
      p.put("name", meta.getDatabaseProductName());
      p.put("version", meta.getDatabaseProductVersion());
      p.put("driver", meta.getDriverName());
      p.put("read_only", meta.isReadOnly());
      p.put("quote", meta.getIdentifierQuoteString());
      p.put("transactions", meta.supportsTransactions());
      return p;
    });
    step(out, "setup", () -> {
      try (Statement s = conn.createStatement()) {
        ObjectNode r = JSON.createObjectNode();
        r.put("create_schema", s.executeUpdate("CREATE SCHEMA " + schema));
        r.put("create_table", s.executeUpdate("CREATE TABLE " + schema + ".items (id bigint, "
            + "name varchar, price decimal(10, 2), qty integer, ratio double, active boolean, "
            + "day date, ts timestamp)"));
        r.put("insert", s.executeUpdate("INSERT INTO " + schema + ".items VALUES "
            + "(1, 'apple', 1.25, 10, 0.5, true, DATE '2024-01-01', "
            + "TIMESTAMP '2024-01-01 08:00:00'), "
            + "(2, 'pear', 2.50, 20, 0.25, false, DATE '2024-02-29', "
            + "TIMESTAMP '2024-02-29 12:30:00.5'), "
            + "(3, 'plum', 0.75, 30, NULL, NULL, NULL, NULL)"));
        return r;
      }
    });
    step(out, "catalogs", () -> rows(meta.getCatalogs(), "TABLE_CAT"));
    step(out, "schemas", () -> rows(meta.getSchemas(), "TABLE_CATALOG", "TABLE_SCHEM"));
    step(out, "schemas_like", () ->
        rows(meta.getSchemas(null, schema.substring(0, 3) + "%"), "TABLE_CATALOG", "TABLE_SCHEM"));
    step(out, "tables", () -> rows(meta.getTables(null, schema, "%", null),
        "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE"));
    step(out, "tables_of_type_view", () ->
        rows(meta.getTables(null, schema, "%", new String[] {"VIEW"}), "TABLE_NAME"));
    step(out, "columns", () -> rows(meta.getColumns(null, schema, "items", "%"),
        "TABLE_NAME", "COLUMN_NAME", "ORDINAL_POSITION", "DATA_TYPE", "TYPE_NAME",
        "IS_NULLABLE", "COLUMN_SIZE", "DECIMAL_DIGITS"));
    step(out, "table_types", () -> rows(meta.getTableTypes(), "TABLE_TYPE"));
    step(out, "primary_keys", () -> rows(meta.getPrimaryKeys(null, schema, "items"),
        "COLUMN_NAME"));
    step(out, "type_info", () -> rows(meta.getTypeInfo(), "TYPE_NAME", "DATA_TYPE"));
    step(out, "all_types", () -> query(conn, "SELECT CAST(7 AS bigint) AS i64, "
        + "CAST(3 AS integer) AS i32, CAST(2 AS smallint) AS i16, CAST(1 AS tinyint) AS i8, "
        + "CAST(1.5 AS double) AS f64, CAST(2.25 AS real) AS f32, "
        + "CAST('12.34' AS decimal(10, 2)) AS dec, CAST('-98765432109876.543210' AS "
        + "decimal(38, 6)) AS dec38, 'text' AS s, true AS b, X'CAFE' AS bin, "
        + "DATE '2024-02-29' AS dt, TIME '13:14:15.123456' AS tm, "
        + "TIMESTAMP '2024-01-02 03:04:05.123456' AS ts, "
        + "CAST(TIMESTAMP '2024-01-02 03:04:05.123456' AS timestamp(6) with time zone) AS tstz, "
        + "CAST(NULL AS varchar) AS n"));
    // Types outside the JDBC core, each on its own so one the driver cannot read does not
    // hide the others.
    step(out, "uuid", () -> query(conn,
        "SELECT CAST('6ba7b810-9dad-11d1-80b4-00c04fd430c8' AS uuid) AS u"));
    step(out, "array", () -> query(conn, "SELECT ARRAY[1, 2, 3] AS arr"));
    String select = "SELECT id, name, price FROM " + schema + ".items WHERE id > ? ORDER BY id";
    step(out, "prepared_query", () -> {
      try (PreparedStatement ps = conn.prepareStatement(select)) {
        ObjectNode r = JSON.createObjectNode();
        ParameterMetaData pm = ps.getParameterMetaData();
        r.put("parameter_count", pm.getParameterCount());
        if (pm.getParameterCount() > 0) r.put("parameter_1_type", pm.getParameterTypeName(1));
        ps.setLong(1, 1);
        try (ResultSet rs = ps.executeQuery()) {
          r.set("first", resultSet(rs).get("rows"));
        }
        ps.setLong(1, 2);
        try (ResultSet rs = ps.executeQuery()) {
          r.set("second", resultSet(rs).get("rows"));
        }
        return r;
      }
    });
    step(out, "prepared_query_string_parameter", () -> {
      String byName = "SELECT id FROM " + schema + ".items WHERE name = ? ORDER BY id";
      try (PreparedStatement ps = conn.prepareStatement(byName)) {
        ObjectNode r = JSON.createObjectNode();
        ps.setString(1, "pear");
        try (ResultSet rs = ps.executeQuery()) {
          r.set("pear", resultSet(rs).get("rows"));
        }
        ps.setString(1, "plum");
        try (ResultSet rs = ps.executeQuery()) {
          r.set("plum", resultSet(rs).get("rows"));
        }
        return r;
      }
    });
    step(out, "prepared_insert", () -> {
      String insert = "INSERT INTO " + schema + ".items (id, name, price) VALUES (?, ?, ?)";
      try (PreparedStatement ps = conn.prepareStatement(insert)) {
        ObjectNode r = JSON.createObjectNode();
        ps.setLong(1, 4);
        ps.setString(2, "fig");
        ps.setBigDecimal(3, new BigDecimal("9.99"));
        r.put("first", ps.executeUpdate());
        ps.setLong(1, 5);
        ps.setString(2, "kiwi");
        ps.setBigDecimal(3, new BigDecimal("0.10"));
        r.put("second", ps.executeUpdate());
        return r;
      }
    });
    step(out, "statement_update", () -> {
      try (Statement s = conn.createStatement()) {
        return s.executeUpdate("INSERT INTO " + schema + ".items (id, name) VALUES (6, 'lime')");
      }
    });
    step(out, "read_back", () -> {
      try (Statement s = conn.createStatement();
          ResultSet rs = s.executeQuery("SELECT id, name, price, qty, ratio, active, day, ts FROM "
              + schema + ".items ORDER BY id")) {
        return resultSet(rs);
      }
    });
    step(out, "syntax_error", () -> {
      try (Statement s = conn.createStatement()) {
        s.executeQuery("SELECT nope FROM " + schema + ".items").close();
        return "ran";
      }
    });
  }

  private static String url(String base, String user, String password) {
    return base + "&user=" + user + "&password=" + password;
  }

  private static void step(ObjectNode out, String name, PeerSteps.Step step) {
    PeerSteps.step(out, name, step, FlightSqlJdbcPeer::error);
  }

  private static ObjectNode error(Throwable e) {
    ObjectNode err = JSON.createObjectNode();
    err.put("error", e.getClass().getName() + ": " + e.getMessage());
    if (e instanceof SQLException sql && sql.getSQLState() != null) {
      err.put("sql_state", sql.getSQLState());
    }
    Throwable root = e;
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      root = t;
      // The Flight status code (the driver shades the class, so it is looked up by name).
      if (t.getClass().getSimpleName().equals("FlightRuntimeException") && !err.has("status")) {
        try {
          Object status = t.getClass().getMethod("status").invoke(t);
          err.put("status", String.valueOf(status.getClass().getMethod("code").invoke(status)));
        } catch (ReflectiveOperationException ignored) {
          // no status to report
        }
      }
    }
    if (root != e) err.put("cause", root.getClass().getName() + ": " + root.getMessage());
    return err;
  }

  private static ObjectNode query(Connection conn, String sql) throws SQLException {
    try (Statement s = conn.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      return resultSet(rs);
    }
  }

  /** The named columns of every row, rendered as JSON values. */
  private static ArrayNode rows(ResultSet rs, String... columns) throws SQLException {
    ArrayNode list = JSON.createArrayNode();
    try (rs) {
      while (rs.next()) {
        ObjectNode row = JSON.createObjectNode();
        for (String c : columns) row.set(c, JSON.valueToTree(render(rs.getObject(c))));
        list.add(row);
      }
    }
    return list;
  }

  /** Column metadata (name, java.sql.Types, type name, class) and every row's values. */
  private static ObjectNode resultSet(ResultSet rs) throws SQLException {
    ObjectNode out = JSON.createObjectNode();
    ResultSetMetaData md = rs.getMetaData();
    ArrayNode columns = out.putArray("columns");
    for (int i = 1; i <= md.getColumnCount(); i++) {
      ObjectNode c = columns.addObject();
      c.put("name", md.getColumnName(i));
      c.put("type", md.getColumnType(i));
      c.put("type_name", md.getColumnTypeName(i));
      c.put("class", md.getColumnClassName(i));
    }
    ArrayNode rows = out.putArray("rows");
    while (rs.next()) {
      ObjectNode row = rows.addObject();
      for (int i = 1; i <= md.getColumnCount(); i++) row.set(md.getColumnName(i), cell(rs, i));
    }
    return out;
  }

  /** getObject's value, or (when the driver cannot give one) the error and getString's. */
  private static JsonNode cell(ResultSet rs, int column) {
    try {
      return JSON.valueToTree(render(rs.getObject(column)));
    } catch (Exception e) {
      ObjectNode failed = JSON.createObjectNode();
      failed.put("getObject_error", e.getClass().getSimpleName() + ": " + e.getMessage());
      try {
        failed.put("string", rs.getString(column));
      } catch (Exception again) {
        failed.put("getString_error", again.getClass().getSimpleName() + ": " + again.getMessage());
      }
      return failed;
    }
  }

  /** A JDBC value as JSON: numbers, booleans and strings as such, others as their text. */
  private static Object render(Object value) {
    if (value == null || value instanceof Boolean || value instanceof Long
        || value instanceof Integer || value instanceof Short || value instanceof Byte
        || value instanceof Double || value instanceof Float || value instanceof String) {
      return value;
    }
    if (value instanceof BigDecimal d) return d.toPlainString();
    if (value instanceof byte[] b) return "0x" + HexFormat.of().formatHex(b);
    return value.toString();
  }

  private static String require(Map<String, String> opts, String key) {
    String v = opts.get(key);
    if (v == null) usage("--" + key + " is required");
    return v;
  }

  private static void usage(String why) {
    System.err.println("FlightSqlJdbcPeer: " + why + "\nusage: FlightSqlJdbcPeer --port PORT "
        + "[--mode scenario|check] --user USER --password PASSWORD --wrong-password P "
        + "[--schema NAME] [--tls-root-certs CA.pem [--client-cert C.pem --client-key K.pem]]");
    System.exit(2);
  }
}
