package dev.sqe.peers;

import java.io.File;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Iceberg's Java REST catalog test server (RESTCatalogAdapter + RESTCatalogServlet from
 * iceberg-core's test jar, the same pieces Iceberg's RESTCatalogServer fixture serves) over a
 * JdbcCatalog, listening on 127.0.0.1 only (the upstream main binds every interface).
 *
 * <p>Usage: RestFixture PORT WAREHOUSE_DIR. The backend is a JdbcCatalog on a SQLite file in
 * the warehouse unless CATALOG_* environment variables say otherwise (the fixture's convention:
 * CATALOG_URI=... becomes uri, CATALOG_IO__IMPL becomes io-impl). Prints one line
 * "rest-fixture listening on 127.0.0.1:PORT" to stderr when it serves.
 */
public final class RestFixture {
  private RestFixture() {}

  static Map<String, String> environmentProperties() {
    Map<String, String> out = new HashMap<>();
    for (Map.Entry<String, String> e : System.getenv().entrySet()) {
      if (!e.getKey().startsWith("CATALOG_")) continue;
      String key =
          e.getKey()
              .substring("CATALOG_".length())
              .replace("__", "-")
              .replace('_', '.')
              .toLowerCase(Locale.ROOT);
      out.put(key, e.getValue());
    }
    return out;
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: RestFixture PORT WAREHOUSE_DIR");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0]);
    File warehouse = new File(args[1]).getAbsoluteFile();
    if (!warehouse.isDirectory() && !warehouse.mkdirs()) {
      System.err.println("rest-fixture: cannot create the warehouse directory " + warehouse);
      System.exit(1);
    }
    Map<String, String> props = environmentProperties();
    props.putIfAbsent(CatalogProperties.CATALOG_IMPL, JdbcCatalog.class.getName());
    props.putIfAbsent(
        CatalogProperties.URI, "jdbc:sqlite:" + new File(warehouse, "rest_catalog.db").getPath());
    props.putIfAbsent("jdbc.schema-version", "V1");
    props.putIfAbsent(CatalogProperties.WAREHOUSE_LOCATION, warehouse.getPath());
    Catalog catalog = CatalogUtil.buildIcebergCatalog("rest_backend", props, new Configuration());

    Server server = new Server();
    // Multi-level namespaces travel as one path segment joined by %1F (the REST spec's
    // separator); Jetty 12 rejects such encoded characters unless told otherwise.
    HttpConfiguration http = new HttpConfiguration();
    http.setUriCompliance(UriCompliance.UNSAFE);
    ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
    connector.setHost("127.0.0.1");
    connector.setPort(port);
    server.addConnector(connector);
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.getServletHandler().setDecodeAmbiguousURIs(true);
    context.addServlet(new ServletHolder(new RESTCatalogServlet(new RESTCatalogAdapter(catalog))), "/*");
    server.setHandler(context);
    server.start();
    System.err.println("rest-fixture listening on 127.0.0.1:" + connector.getLocalPort());
    server.join();
  }
}
