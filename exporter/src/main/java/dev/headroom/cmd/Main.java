package dev.headroom.cmd;

import dev.headroom.config.ConfigException;
import dev.headroom.config.ConfigParser;
import dev.headroom.config.Flags;
import dev.headroom.config.Settings;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * Entry point: {@code headroom [serve|check|profile|size|help] [flags]}; {@code serve} is the default. One picocli
 * command line for all of them: picocli picks the command and answers {@code --help}, {@code --version},
 * {@code help COMMAND} and bad flags (a mistyped flag or command is named with the nearest known one).
 *
 * <p>Usage: {@code java -jar headroom.jar check --tunnel.interface=wt0}
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    // UTF-8 whatever the locale: without LANG (systemd's default) the JVM would encode as ASCII and print
    // '?' for every other character. Set before anything logs, so the log (stderr) is UTF-8 too.
    System.setOut(utf8(FileDescriptor.out));
    System.setErr(utf8(FileDescriptor.err));
    int code = run(args, System.out, System.err);
    if (code >= 0) {
      System.exit(code);
    }
  }

  /** A stream on {@code fd} that encodes as UTF-8 and flushes on every line, as System.out and System.err do. */
  static PrintStream utf8(FileDescriptor fd) {
    return new PrintStream(new FileOutputStream(fd), true, StandardCharsets.UTF_8);
  }

  /** Runs a command; returns its exit code (serve: once stopped by a signal), or -1 when the JVM is already exiting. */
  static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    CommandLine cl = new CommandLine(new Serve(out, err));
    // Without a command word, headroom serves: the top command is serve under the program's name.
    cl.getCommandSpec().name("headroom").usageMessage()
        .description("Per-direction headroom of a WireGuard routing peer, for Prometheus. Without a command: serve.");
    cl.addSubcommand(new Serve(out, err))
        .addSubcommand(new Check(out, err))
        .addSubcommand(new Profile(out, err))
        .addSubcommand(new SizeCommand(out, err))
        .addSubcommand(new Help(out, err));
    cl.getCommandSpec().versionProvider(() -> new String[] {"headroom " + Version.get()});
    cl.setOverwrittenOptionsAllowed(true); // a wrapper may append an override to the unit's command line
    cl.getSubcommands().get("size").setOverwrittenOptionsAllowed(false);
    return execute(Flags.layout(cl), args, out, err);
  }

  /** Runs {@code cl} on {@code args}: help to {@code out}, a bad flag to {@code err} with exit code 2. */
  static int execute(CommandLine cl, String[] args, PrintStream out, PrintStream err) throws Exception {
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    cl.setParameterExceptionHandler((e, given) -> {
      CommandLine at = e.getCommandLine();
      if (at.getCommand() instanceof SizeCommand) {
        return SizeCommand.usageError(e, at, err);
      }
      String who = at.getCommandSpec().qualifiedName();
      err.println(who + ": " + Flags.message(e));
      err.println("see '" + who + " --help'");
      return 2;
    });
    cl.setExecutionExceptionHandler((e, at, parsed) -> {
      throw e;
    });
    return cl.execute(args);
  }

  /**
   * A command that runs the sampler. Its settings are the flags before the command word and after it (those after
   * win), parsed again over the config file by {@link ConfigParser}, as a reload does.
   */
  private abstract static class Sampling implements Callable<Integer> {
    @Mixin Settings settings;
    @Spec CommandSpec spec;
    final PrintStream out;
    final PrintStream err;

    Sampling(PrintStream out, PrintStream err) {
      this.out = out;
      this.err = err;
    }

    @Override
    public Integer call() throws Exception {
      List<String> flags = new ArrayList<>();
      for (ParseResult pr = spec.root().commandLine().getParseResult(); pr != null; pr = pr.subcommand()) {
        for (OptionSpec o : pr.matchedOptions()) {
          if (!o.usageHelp() && !o.versionHelp()) {
            o.originalStringValues().forEach(v -> flags.add(o.longestName() + "=" + v));
          }
        }
      }
      ConfigParser.Parsed parsed;
      try {
        parsed = ConfigParser.parse(flags.toArray(String[]::new));
      } catch (ConfigException e) {
        err.println("headroom: " + e.getMessage());
        return 2;
      }
      return run(parsed);
    }

    abstract int run(ConfigParser.Parsed parsed) throws Exception;
  }

  @Command(name = "serve", mixinStandardHelpOptions = true,
      description = "Sample every --sample.interval and serve the metrics, the live page and the status API.")
  private static final class Serve extends Sampling {
    Serve(PrintStream out, PrintStream err) {
      super(out, err);
    }

    @Override
    int run(ConfigParser.Parsed parsed) throws Exception {
      return ServeCommand.serve(parsed, err);
    }
  }

  @Command(name = "check", mixinStandardHelpOptions = true,
      description = "Sample for --check.duration, print the reading in words; exit 1 without a tunnel interface.")
  private static final class Check extends Sampling {
    Check(PrintStream out, PrintStream err) {
      super(out, err);
    }

    @Override
    int run(ConfigParser.Parsed parsed) throws Exception {
      return CheckCommand.run(parsed.config(), out, err);
    }
  }

  @Command(name = "profile", mixinStandardHelpOptions = true,
      description = "Measure this peer's ceiling while iperf3 drives load; write it to --profile.file.")
  private static final class Profile extends Sampling {
    Profile(PrintStream out, PrintStream err) {
      super(out, err);
    }

    @Override
    int run(ConfigParser.Parsed parsed) throws Exception {
      AtomicBoolean stop = new AtomicBoolean();
      Thread main = Thread.currentThread();
      Thread hook = new Thread(() -> {
        stop.set(true); // Ctrl-C: finish the loop, write what was measured, then let the JVM exit
        try {
          main.join(5000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "headroom-profile-stop");
      Runtime.getRuntime().addShutdownHook(hook);
      int code = ProfileCommand.run(parsed.config(), out, err, stop);
      if (stop.get()) {
        return -1; // the JVM is already exiting; System.exit here would wait on our own hook
      }
      Runtime.getRuntime().removeShutdownHook(hook);
      return code;
    }
  }

  @Command(name = "help", description = "Print a command's flags: headroom help size.")
  private static final class Help implements Callable<Integer> {
    @Parameters(arity = "0..1", paramLabel = "COMMAND") String command;
    @Spec CommandSpec spec;
    private final PrintStream out;
    private final PrintStream err;

    Help(PrintStream out, PrintStream err) {
      this.out = out;
      this.err = err;
    }

    @Override
    public Integer call() {
      CommandLine top = spec.root().commandLine();
      CommandLine of = command == null ? top : top.getSubcommands().get(command);
      if (of == null) {
        err.println("headroom help: unknown command '" + command + "' (commands: "
            + String.join(", ", top.getSubcommands().keySet()) + ")");
        return 2;
      }
      of.usage(out);
      return 0;
    }
  }
}
