package dev.headroom.cmd;

import dev.headroom.config.ConfigParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The training run behind the class-data-sharing archive: serves on a free loopback port with this machine's
 * /sys and /proc ({@code lo} as the tunnel), waits until ready, asks every route the way Prometheus and a
 * browser do, then exits, so a JVM started with {@code -XX:ArchiveClassesAtExit} archives the classes a
 * serving exporter loads. Requests go over a plain socket so no HTTP client lands in the archive.
 *
 * <p>Kept because the archive pays: {@code exporter/src/bench/startup.sh}, 24 starts each, measured a median ready
 * of 1.37 s with it against 1.80 s with the JDK's archive alone, and 1.4 MiB less resident memory
 * (docs/benchmarks.md, "Settings that stay").
 *
 * <p>Usage: {@code java -XX:ArchiveClassesAtExit=headroom.jsa -cp headroom.jar dev.headroom.cmd.CdsTraining}
 * (the packaged launcher does this: {@code headroom write-cds-archive}).
 */
public final class CdsTraining {
  private static final String[] REQUESTS = {
      "/metrics|Accept-Encoding: gzip", "/metrics|Accept: application/openmetrics-text; version=1.0.0",
      "/metrics|", "/-/ready|", "/-/healthy|", "/|", "/api/v1/status|", "/api/v1/history|"};

  private CdsTraining() {}

  public static void main(String[] args) throws Exception {
    int code = 1;
    try (ServeCommand.Running r = ServeCommand.start(ConfigParser.parse(new String[] {
        "--web.listen-address=127.0.0.1:0", "--tunnel.interface=lo", "--netbird.interval=0s"}).config())) {
      int port = r.server().port();
      long deadline = System.nanoTime() + 60_000_000_000L;
      while (status(port, "/-/ready", "") != 200) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("not ready within 60 s");
        }
        Thread.sleep(50);
      }
      code = 0;
      for (String req : REQUESTS) {
        String[] pathHeader = req.split("\\|", 2);
        int s = status(port, pathHeader[0], pathHeader[1]);
        if (s != 200) {
          System.err.println("headroom: training request " + pathHeader[0] + " answered " + s);
          code = 1;
        }
      }
    }
    System.exit(code);
  }

  /** One GET over a plain socket; returns the status code. */
  private static int status(int port, String path, String header) throws IOException {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
          + (header.isEmpty() ? "" : header + "\r\n") + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      String head = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
      in.transferTo(OutputStream.nullOutputStream());
      return head.startsWith("HTTP/1.1 ") ? Integer.parseInt(head.substring(9, 12)) : -1;
    }
  }
}
