package dev.headroom.read;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * One procfs or sysfs file read whole into a buffer reused from read to read. On the real filesystem the
 * file is opened once and re-read from offset 0 (procfs and sysfs format their content afresh on each read
 * at offset 0, and never replace the file); under a fixture tree, whose files are replaced when they change,
 * it is opened for each read. Not thread-safe: one per reading thread.
 *
 * <p>Usage: {@code KernelFile stat = new KernelFile(procfs.resolve("stat"), 4 << 20); int n = stat.read(); List<CpuTimes> cores = ProcStat.parseCores(stat.bytes(), n, stat.path());}
 */
public final class KernelFile implements AutoCloseable {
  private final Path file;
  private final int maxBytes;
  private final boolean holdOpen;
  private FileChannel held;
  private byte[] bytes = new byte[512];
  private ByteBuffer view = ByteBuffer.wrap(bytes);

  /** @param maxBytes the most the file may hold; a longer one is not the kernel's and is refused */
  public KernelFile(Path file, int maxBytes) {
    this.file = file;
    this.maxBytes = maxBytes;
    this.holdOpen = isKernelMount(file.getParent());
  }

  /** True when {@code dir} lies on a real procfs or sysfs mount, where a held descriptor stays valid. */
  static boolean isKernelMount(Path dir) {
    try {
      String type = Files.getFileStore(dir).type();
      return "proc".equals(type) || "sysfs".equals(type);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  public Path path() {
    return file;
  }

  /** The buffer the last {@link #read} filled; valid up to the length it returned. */
  public byte[] bytes() {
    return bytes;
  }

  /** Reads the whole file into {@link #bytes()} and returns its length, or an error naming the file. */
  public int read() throws ReadException {
    try {
      if (held != null) {
        try {
          return readFrom(held);
        } catch (ReadException e) {
          throw e;
        } catch (IOException e) {
          close(); // the file went away under the descriptor: open afresh below, which names the problem
        }
      }
      FileChannel ch = Sysfs.open(file);
      if (holdOpen) {
        held = ch;
        return readFrom(ch);
      }
      try (ch) {
        return readFrom(ch);
      }
    } catch (IOException e) {
      throw Sysfs.explain(file, e);
    }
  }

  private int readFrom(FileChannel ch) throws IOException {
    int n = 0;
    while (true) {
      if (n == bytes.length) { // never past maxBytes + 1: the check below has thrown by then
        bytes = Arrays.copyOf(bytes, (int) Math.min(maxBytes + 1L, 2L * bytes.length));
        view = ByteBuffer.wrap(bytes);
      }
      view.limit(bytes.length).position(n);
      int r = ch.read(view, n);
      if (r < 0) {
        return n;
      }
      n += r;
      if (n > maxBytes) {
        throw new ReadException(file + ": longer than " + maxBytes + " bytes, not a kernel file");
      }
    }
  }

  @Override
  public void close() {
    if (held != null) {
      try {
        held.close();
      } catch (IOException ignored) {
        // nothing to release on a file that is gone
      }
      held = null;
    }
  }
}
