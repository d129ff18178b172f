package dev.headroom.read;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds the processes and kernel threads that run the WireGuard datapath and reads their CPU time.
 *
 * <p>Userspace: the process holding the TUN descriptor (its {@code fdinfo} has {@code iff:\t<iface>}); when
 * fdinfo is unreadable (an unprivileged exporter may not read root's), the first process whose name is in
 * the configured list. Kernel: the {@code napi/<iface>-N} threads and the kworkers last seen running
 * {@code wg-crypt-<iface>}; the sampler adds softirq time from the CPU reading. Netstack: there is no TUN to
 * hold, and NetBird runs the crypto and its TCP/IP stack in its own process, so the process named {@code netbird}
 * (else the first of the configured names) is the datapath. Discovery scans all of
 * {@code /proc}, so it runs only when nothing is known, a known PID vanished, the tunnel was recreated, or
 * (kernel threads, or no process found yet) every rediscovery period.
 *
 * <p>Usage: {@code DatapathCpu cpu = reader.read(Datapath.USERSPACE, nowNanos);}
 */
public final class DatapathCpuReader {
  /** NetBird's own process: in netstack mode the datapath runs inside it. */
  private static final String NETBIRD = "netbird";
  private final Path procfs;
  private final String iface;
  private final List<String> processNames;
  private final long rediscoverNanos;

  private List<Integer> pids = List.of();
  private final java.nio.ByteBuffer commBuf = java.nio.ByteBuffer.allocate(256);
  private final boolean procfsIsKernel;
  /** The stat and status files of the pids above, kept from sample to sample (see {@link KernelFile}). */
  private final java.util.Map<Integer, KernelFile[]> files = new java.util.HashMap<>();
  /** The last {@code Cpus_allowed_list} text and its parse, reused while the text stays the same. */
  private byte[] allowedText = new byte[0];
  private java.util.SortedSet<Integer> allowed = NONE;
  private static final java.util.SortedSet<Integer> NONE = java.util.Collections.emptySortedSet();
  private static final byte[] ALLOWED_KEY = "Cpus_allowed_list:".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private Datapath discoveredFor;
  private long discoveredAt;
  private String description = "not found";

  public DatapathCpuReader(Path procfsRoot, String iface, List<String> processNames, long rediscoverNanos) {
    this.procfs = procfsRoot;
    this.iface = iface;
    this.processNames = List.copyOf(processNames);
    this.rediscoverNanos = rediscoverNanos;
    this.procfsIsKernel = KernelFile.isKernelMount(procfsRoot);
  }

  /**
   * Cumulative CPU of the datapath's tasks; the pid list tells the caller when the set changed.
   *
   * @param pids an unmodifiable list, kept from sample to sample while the datapath's tasks stay the same
   * @param allowedCpus ids of the cores the userspace process may run on (its affinity), empty when unknown
   *     or kernel; a set no one changes afterwards: it is kept, not copied, as it serves every second
   */
  public record DatapathCpu(
      long cpuMillis, List<Integer> pids, String description, java.util.SortedSet<Integer> allowedCpus) {}

  /** Forces discovery on the next read: the tunnel was recreated, so its owner may be new. */
  public void invalidate() {
    discoveredFor = null;
  }

  public DatapathCpu read(Datapath datapath, long nowNanos) throws ReadException {
    if (datapath == Datapath.ABSENT) {
      pids = List.of();
      keepFilesOf(pids);
      discoveredFor = null;
      return new DatapathCpu(0, List.of(), "no tunnel", NONE);
    }
    // A found userspace process is kept until it exits or the tunnel is recreated; kernel workers change
    // names as they pick up work, and a process not found yet may start, so those are looked for again.
    boolean periodic = datapath == Datapath.KERNEL || pids.isEmpty();
    boolean stale = discoveredFor != datapath || (periodic && nowNanos - discoveredAt >= rediscoverNanos);
    if (!stale) {
      Optional<Long> ms = sum(pids);
      if (ms.isPresent()) {
        return new DatapathCpu(ms.get(), pids, description, allowedCpus(datapath));
      }
    }
    discover(datapath);
    keepFilesOf(pids);
    discoveredFor = datapath;
    discoveredAt = nowNanos;
    return new DatapathCpu(sum(pids).orElse(0L), pids, description, allowedCpus(datapath));
  }

  /**
   * The userspace process's CPU affinity ({@code Cpus_allowed_list} in its status), read every sample
   * because an operator may pin it at any time; pinned to one core, it plateaus with the others idle.
   */
  private java.util.SortedSet<Integer> allowedCpus(Datapath datapath) {
    if (!datapath.userspace() || pids.size() != 1) {
      return NONE;
    }
    KernelFile f = files(pids.get(0))[1];
    try {
      int n = f.read();
      byte[] b = f.bytes();
      int at = indexOf(b, n, ALLOWED_KEY);
      if (at < 0) {
        return NONE;
      }
      int from = at + ALLOWED_KEY.length;
      int to = from;
      while (to < n && b[to] != '\n') {
        to++;
      }
      if (!java.util.Arrays.equals(b, from, to, allowedText, 0, allowedText.length)) {
        allowed = CpuList.parse(new String(b, from, to - from, java.nio.charset.StandardCharsets.US_ASCII), f.path());
        allowedText = java.util.Arrays.copyOfRange(b, from, to);
      }
      return allowed;
    } catch (ReadException e) {
      // status unreadable or odd: the limit stays unknown, which only weakens the userspace CPU verdict
      return NONE;
    }
  }

  /** Where {@code key} starts a line in the first {@code n} bytes of {@code b}, or -1. */
  private static int indexOf(byte[] b, int n, byte[] key) {
    for (int i = 0; i + key.length <= n; i++) {
      if ((i == 0 || b[i - 1] == '\n') && java.util.Arrays.equals(b, i, i + key.length, key, 0, key.length)) {
        return i;
      }
    }
    return -1;
  }

  /** stat and status of one pid, opened on first use and kept while the pid stays in the datapath. */
  private KernelFile[] files(int pid) {
    return files.computeIfAbsent(pid, p -> {
      Path dir = procfs.resolve(Integer.toString(p));
      return new KernelFile[] {
        new KernelFile(dir.resolve("stat"), Sysfs.MAX_ATTRIBUTE_BYTES),
        new KernelFile(dir.resolve("status"), Sysfs.MAX_ATTRIBUTE_BYTES)};
    });
  }

  /** Closes the files of pids no longer in the datapath. */
  private void keepFilesOf(List<Integer> current) {
    for (var it = files.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      if (!current.contains(e.getKey())) {
        for (KernelFile f : e.getValue()) {
          f.close();
        }
        it.remove();
      }
    }
  }

  private Optional<Long> sum(List<Integer> ids) {
    long total = 0;
    for (int i = 0, n = ids.size(); i < n; i++) {
      KernelFile f = files(ids.get(i))[0];
      try {
        int len = f.read();
        total += ProcessStat.parse(f.bytes(), len, f.path()).cpuMillis();
      } catch (ReadException e) {
        return Optional.empty(); // gone: rediscover
      }
    }
    return Optional.of(total);
  }

  private void discover(Datapath datapath) throws ReadException {
    List<Integer> found = new ArrayList<>();
    List<String> foundNames = new ArrayList<>();
    List<Integer> byName = new ArrayList<>();
    boolean[] fdinfoReadable = new boolean[1];
    String napiPrefix = "napi/" + iface + "-";
    String cryptName = "wg-crypt-" + iface;
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(procfs, p -> isPid(p.getFileName().toString()))) {
      for (Path dir : dirs) {
        String comm = comm(dir.resolve("comm"));
        if (comm == null) {
          continue; // exited while we looked
        }
        int pid = Integer.parseInt(dir.getFileName().toString());
        if (datapath == Datapath.KERNEL) {
          if (comm.startsWith(napiPrefix) || comm.endsWith(cryptName)) {
            found.add(pid);
            foundNames.add(comm);
          }
        } else if (processNames.contains(comm)) {
          byName.add(pid);
          if (datapath == Datapath.NETSTACK) {
            if (NETBIRD.equals(comm)) {
              found.add(pid);
            }
          } else if (holdsTun(dir, fdinfoReadable)) {
            found.add(pid);
          }
        }
      }
    } catch (IOException e) {
      throw new ReadException(procfs + ": cannot list processes: " + e.getMessage(), e);
    }
    if (datapath == Datapath.NETSTACK) {
      List<Integer> pick = found.isEmpty() ? byName : found;
      pids = pick.isEmpty() ? List.of() : List.of(pick.get(0));
      description = pick.isEmpty() ? "no process named " + String.join(" or ", processNames)
          : "pid " + pick.get(0) + " by name (netstack: crypto and network stack run in it)";
    } else if (datapath == Datapath.USERSPACE) {
      if (!found.isEmpty()) {
        pids = List.of(found.get(0));
        description = "pid " + found.get(0) + " holds the TUN of " + iface;
      } else if (!byName.isEmpty() && !fdinfoReadable[0]) {
        // Without fdinfo we cannot tell which process holds the TUN; the name is the best evidence left.
        pids = List.of(byName.get(0));
        description = "pid " + byName.get(0) + " by name (its descriptors are not readable)";
      } else {
        pids = List.of();
        description = "no process named " + String.join(" or ", processNames);
      }
    } else {
      pids = List.copyOf(found);
      // Named, not counted: an operator checks the attribution against top/ps, and kworkers change names.
      description = found.isEmpty()
          ? "softirq only (no napi/" + iface + "-N or " + cryptName + " thread seen)"
          : "softirq plus " + found.size() + " kernel threads: " + String.join(", ", foundNames.stream().sorted().toList());
    }
  }

  /**
   * A task's name through a reused buffer, or null when it cannot be read (the task exited). Discovery reads
   * one per task on the host every rediscovery period; the whole-file read helpers cost ~3 KB a task here.
   * On the real procfs {@code comm} is always a regular file, so only a fixture root is checked first.
   */
  private String comm(Path file) {
    commBuf.clear();
    try (java.nio.channels.FileChannel ch = procfsIsKernel
        ? java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.READ)
        : Sysfs.open(file)) {
      while (commBuf.hasRemaining() && ch.read(commBuf) > 0) {
        // comm is one short line; a kworker's carries its workqueue, still far below the buffer
      }
    } catch (IOException e) {
      return null;
    }
    int end = commBuf.position();
    while (end > 0 && Character.isWhitespace(commBuf.get(end - 1))) {
      end--;
    }
    return new String(commBuf.array(), 0, end, java.nio.charset.StandardCharsets.UTF_8);
  }

  private boolean holdsTun(Path procDir, boolean[] readable) {
    String wanted = "iff:\t" + iface;
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(procDir.resolve("fdinfo"))) {
      for (Path fd : fds) {
        try {
          String info = Sysfs.read(fd);
          readable[0] = true;
          if (info.lines().anyMatch(wanted::equals)) {
            return true;
          }
        } catch (IOException e) {
          // closed meanwhile, or not ours to read
        }
      }
    } catch (IOException e) {
      return false;
    }
    return false;
  }

  private static boolean isPid(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      if (!Character.isDigit(name.charAt(i))) {
        return false;
      }
    }
    return true;
  }
}
