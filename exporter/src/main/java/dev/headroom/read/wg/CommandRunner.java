package dev.headroom.read.wg;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a short command with a hard timeout and collects its output. Both pipes are drained on their own
 * threads so a large output (thousands of peers) cannot fill the pipe and stall the child.
 */
final class CommandRunner {

  /** Output beyond this is dropped; a status command never legitimately prints this much. */
  static final int MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

  record Result(int exitCode, String stdout, String stderr) {}

  /** The executable could not be started (usually: not installed or not on PATH). */
  static final class NotInstalledException extends IOException {
    private static final long serialVersionUID = 1L;

    NotInstalledException(String command, IOException cause) {
      super("cannot run " + command + ": " + cause.getMessage(), cause);
    }
  }

  private CommandRunner() {}

  static Result run(List<String> command, Duration timeout) throws IOException {
    Process p;
    try {
      p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.PIPE).start();
    } catch (IOException e) {
      throw new NotInstalledException(command.get(0), e);
    }
    p.getOutputStream().close();
    Drain out = new Drain(p.getInputStream(), command.get(0) + "-stdout");
    Drain err = new Drain(p.getErrorStream(), command.get(0) + "-stderr");
    boolean done;
    try {
      done = p.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running " + String.join(" ", command), e);
    }
    if (!done) {
      p.destroyForcibly();
      throw new IOException(String.join(" ", command) + " did not finish within " + timeout.toMillis() + " ms; killed it");
    }
    return new Result(p.exitValue(), out.text(), err.text());
  }

  private static final class Drain extends Thread {
    private final InputStream in;
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();

    Drain(InputStream in, String name) {
      super(name);
      this.in = in;
      setDaemon(true);
      start();
    }

    @Override
    public void run() {
      byte[] chunk = new byte[16 * 1024];
      try (in) {
        int n;
        while ((n = in.read(chunk)) >= 0) {
          if (buf.size() + n <= MAX_OUTPUT_BYTES) {
            buf.write(chunk, 0, n);
          }
        }
      } catch (IOException ignored) {
        // The process was killed or closed its end; what was read so far is all there is.
      }
    }

    String text() {
      try {
        // The child has exited, so EOF is near; a grandchild holding the pipe open must not hang the sampler.
        join(2000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return buf.toString(StandardCharsets.UTF_8); // ByteArrayOutputStream is synchronized internally
    }
  }
}
