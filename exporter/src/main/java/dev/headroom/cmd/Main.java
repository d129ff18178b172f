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
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * Entry point: {@code headroom [serve|check|profile|size|discover|help] [flags]}; {@code serve} is the default. One picocli
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
    AtomicReference<Callable<Integer>> chosen = new AtomicReference<>();
    // Without a command word, headroom serves: the top command is serve under the program's name.
    CommandLine cl = sampling("headroom", "Per-direction headroom of a WireGuard routing peer, for Prometheus."
        + " Without a command: serve.", err, chosen, p -> ServeCommand.serve(p, err));
    cl.addSubcommand(sampling("serve", "Sample every --sample.interval and serve the metrics, the live page and the"
        + " status API.", err, chosen, p -> ServeCommand.serve(p, err)));
    cl.addSubcommand(sampling("check", "Sample for --check.duration, print the reading in words; exit 1 without a"
        + " tunnel interface.", err, chosen, p -> CheckCommand.run(p.config(), out, err)));
    cl.addSubcommand(sampling("profile", "Measure this peer's ceiling while iperf3 drives load; write it to"
        + " --profile.file.", err, chosen, p -> profile(p, out, err)));
    cl.addSubcommand(new Help(out, err));
    // Set before size is added, so they reach the sampling commands only; size has its own.
    Settings.typed(cl).setOverwrittenOptionsAllowed(true); // a wrapper may append an override to the unit's line
    cl.addSubcommand(SizeCommand.commandLine(out, err));
    cl.addSubcommand(DiscoverCommand.commandLine(out, err));
    CommandLine.IVersionProvider version = () -> new String[] {"headroom " + Version.get()}; // read only if asked
    cl.getCommandSpec().versionProvider(version);
    cl.getSubcommands().values().forEach(c -> c.getCommandSpec().versionProvider(version));
    int code = execute(Flags.layout(cl), args, out, err);
    // A sampling command runs once picocli is done, so the daemon does not keep the command line's model.
    return chosen.get() == null ? code : chosen.get().call();
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

  /** What a sampling command does with its configuration; returns the exit code. */
  private interface Run {
    int run(ConfigParser.Parsed parsed) throws Exception;
  }

  private static CommandLine sampling(String name, String description, PrintStream err,
      AtomicReference<Callable<Integer>> chosen, Run run) {
    CommandLine cl = new CommandLine(new Sampling(err, chosen, run));
    cl.getCommandSpec().name(name).usageMessage().description(description);
    return cl;
  }

  /**
   * A command that runs the sampler. Its settings are the flags before the command word and after it (those after
   * win), parsed again over the config file by {@link ConfigParser}, as a reload does; a good configuration
   * makes {@code run} the command to run. Why parse twice: the file's values enter picocli as defaults, and the
   * file's name is itself one of the flags, so this first parse cannot read it; a reload needs the same flags over
   * the re-read file, so they are kept as {@link ConfigParser.Parsed#flags()}.
   */
  @Command(mixinStandardHelpOptions = true)
  private static final class Sampling implements Callable<Integer> {
    @Mixin Settings settings;
    @Spec CommandSpec spec;
    private final PrintStream err;
    private final AtomicReference<Callable<Integer>> chosen;
    private final Run run;

    Sampling(PrintStream err, AtomicReference<Callable<Integer>> chosen, Run run) {
      this.err = err;
      this.chosen = chosen;
      this.run = run;
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
      Run r = run;
      chosen.set(() -> r.run(parsed));
      return 0;
    }
  }

  /** Profiles until done or Ctrl-C, which keeps what was measured. */
  private static int profile(ConfigParser.Parsed parsed, PrintStream out, PrintStream err) throws InterruptedException {
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
    int code = ProfileCommand.run(parsed.config(), System.in, out, err, stop);
    if (stop.get()) {
      return -1; // the JVM is already exiting; System.exit here would wait on our own hook
    }
    Runtime.getRuntime().removeShutdownHook(hook);
    return code;
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
