package dev.headroom.cmd;

import java.io.PrintStream;

/** Placeholder until the sizing calculator lands. Usage: {@code SizeCommand.run(args, out, err)}. */
public final class SizeCommand {
  private SizeCommand() {}

  public static int run(String[] args, PrintStream out, PrintStream err) {
    err.println("headroom size: not available in this build");
    return 2;
  }
}
