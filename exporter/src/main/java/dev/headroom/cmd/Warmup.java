package dev.headroom.cmd;

import dev.headroom.read.OshiCpuSource;

/**
 * Start-up work that a sampling command needs whatever its flags say, begun on a thread of its own while the
 * main thread parses the command line (about 0.2 s of picocli here): OSHI and JNA for the CPU source, and, for
 * {@code serve}, Jetty's MIME table, whose class initializer walks the JDK's locales (about 250 classes). On a
 * machine with two cores it runs beside the parse; the sampling and main threads then find it done
 * (docs/benchmarks.md, "Settings that stay").
 *
 * <p>Usage: {@code Warmup.begin(args);}
 */
final class Warmup {
  private Warmup() {}

  /** Starts the warm-up for the command {@code args} names; returns its thread, or null when it needs none. */
  static Thread begin(String[] args) {
    String command = args.length == 0 || args[0].startsWith("-") ? "serve" : args[0]; // serve is the default
    boolean serve = command.equals("serve");
    if (!serve && !command.equals("check") && !command.equals("profile")) {
      return null;
    }
    Thread t = new Thread(() -> {
      OshiCpuSource.prepare();
      if (serve) {
        try {
          Class.forName("org.eclipse.jetty.http.MimeTypes", true, Warmup.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
          // a Jetty without it: the server starts as it would have
        }
      }
    }, "headroom-warmup");
    t.setDaemon(true);
    t.start();
    return t;
  }
}
