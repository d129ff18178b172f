package dev.headroom.replay;

import dev.headroom.read.CpuSource;
import dev.headroom.read.OshiCpuSource;
import dev.headroom.testing.FixtureTree;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * A fixture peer of any shape (cores, MTUs, NIC speed, CPU quota) whose counters move as a live peer's would under
 * a steady load. The daemon under test reads the tree as it would read {@code /sys} and {@code /proc}, and stamps
 * its readings with {@link #clock()}, which first rewrites the tunnel and underlay byte counters, each core's
 * {@code /proc/stat} line and the userspace datapath's CPU time to what the load has added by that moment. So every
 * reading holds the counters of the time it is stamped with, as the kernel's do: a loaded host that delays the
 * daemon's thread delays the reading, never a writer behind it (a writer thread on its own cadence would hand the
 * daemon counters as old as that thread's last run, a rate dip and then a spike no live peer shows).
 *
 * <p>The daemon reads the per-core CPU through OSHI, as on a peer. OSHI takes its roots once per JVM, so every
 * replayed peer is laid out afresh at one place ({@link #tree}), and the replay tests run in a JVM of their own
 * (the {@code replay} execution in {@code exporter/pom.xml}).
 *
 * <p>Usage: {@code ReplayPeer p = ReplayPeer.kernel(32).line(100_000, 1500).start(load);
 * ServeCommand.start(config, ServeCommand.webConfig(config), () -> {}, p.clock());}
 */
final class ReplayPeer implements AutoCloseable {
  /** Every one of {@code cores} cores at the same busy share. */
  static double[] busy(int cores, double all) {
    double[] b = new double[cores];
    Arrays.fill(b, all);
    return b;
  }

  /** USER_HZ: /proc/stat and /proc/PID/stat count in hundredths of a second. */
  private static final double HZ = 100;
  /** The datapath's CPU: wireguard-go's process in the userspace fixture, the tunnel's NAPI thread in the kernel one. */
  private final String datapathPid;
  /** Index of the field that grows in its stat line: utime for a process, stime for a kernel thread. */
  private final int datapathField;

  /** A steady load: tunnel and underlay Gbps per direction, each core's busy ratio, the datapath's cores. */
  record Load(double downGbps, double upGbps, double underlayTxGbps, double underlayRxGbps, double[] busy,
      double datapathCores) {
    /** The underlay carries the tunnel plus WireGuard/UDP/IP/Ethernet headers: 74 bytes a packet. */
    static Load tunnel(double downGbps, double upGbps, int tunnelMtu, double[] busy, double datapathCores) {
      double f = (tunnelMtu + 74.0) / tunnelMtu;
      return new Load(downGbps, upGbps, downGbps * f, upGbps * f, busy, datapathCores);
    }
  }

  private final FixtureTree tree;
  private final int cores;
  private final String statTail;
  private final Path datapathStatFile;
  private int tunnelMtu = 1280;
  /** The size of the tunnel's packets (both directions); the tunnel MTU unless set. */
  private int packetBytes;
  private boolean tunnel = true;
  private Load load;
  private long t0;
  private long[] base;
  private String[] datapathStat;
  /** Each core's user and idle ticks when the load started, and as last written. */
  private long[][] cpuBase;
  private long[][] cpuNow;
  private boolean closed;

  private ReplayPeer(FixtureTree tree, int cores, String datapathPid, int datapathField) {
    this.tree = tree;
    this.datapathPid = datapathPid;
    this.datapathField = datapathField;
    this.cores = cores;
    String stat = tree.read(tree.proc().resolve("stat"));
    this.statTail = stat.lines().filter(l -> !l.startsWith("cpu")).reduce("", (a, b) -> a + b + "\n");
    this.datapathStatFile = tree.proc().resolve(datapathPid).resolve("stat");
    StringBuilder online = new StringBuilder();
    tree.write(tree.sys().resolve("devices/system/cpu/online"), "0-" + (cores - 1) + "\n");
    tree.write(tree.sys().resolve("devices/system/cpu/present"), "0-" + (cores - 1) + "\n");
    tree.write(tree.sys().resolve("devices/system/cpu/possible"), "0-" + (cores - 1) + "\n");
    for (int c = 1; c < cores; c++) {
      tree.write(tree.sys().resolve("devices/system/cpu/cpu" + c + "/online"), "1\n");
    }
    cpuNow = new long[2][cores];
    Arrays.fill(cpuNow[0], 100_000);
    Arrays.fill(cpuNow[1], 900_000);
    cpuBase = cpuNow;
    writeCpu(new double[cores], 0);
  }

  /** Where this JVM's replayed peers live: the one tree its OSHI reads. */
  private static final Path ROOT = Path.of("target", "replay-peer").toAbsolutePath();

  /**
   * The fixture peer {@code fixture}, laid out afresh where this JVM's OSHI reads; fails unless OSHI reads it,
   * so a replay never passes on the procfs parser instead of the reader a peer runs.
   */
  static FixtureTree tree(String fixture) {
    FixtureTree.delete(ROOT);
    FixtureTree t = FixtureTree.copy(fixture, ROOT);
    if (!(CpuSource.forRoots(t.sys(), t.proc()) instanceof OshiCpuSource)) {
      throw new IllegalStateException("OSHI reads another tree in this JVM than " + ROOT
          + ": run the replay tests in a JVM of their own (mvn test runs them so)");
    }
    return t;
  }

  /** A kernel WireGuard peer of {@code cores} cores, from the {@code kernel} fixture. */
  static ReplayPeer kernel(int cores) {
    return new ReplayPeer(tree("kernel"), cores, "311", 14);
  }

  /** A userspace (NetBird's wireguard-go) peer of {@code cores} cores, from the {@code userspace} fixture. */
  static ReplayPeer userspace(int cores) {
    return new ReplayPeer(tree("userspace"), cores, "4242", 13);
  }

  FixtureTree tree() {
    return tree;
  }

  /** The underlay NIC's speed (Mbit/s, as sysfs says it) and MTU. */
  ReplayPeer line(int speedMbit, int mtu) {
    tree.write(tree.netFile("eth0", "speed"), speedMbit + "\n");
    tree.write(tree.netFile("eth0", "mtu"), mtu + "\n");
    return this;
  }

  /**
   * The size of the packets the tunnel carries from the next {@link #start} on (full packets of the tunnel MTU
   * until set): the same bytes in more, smaller packets.
   */
  synchronized ReplayPeer packets(int bytes) {
    packetBytes = bytes;
    return this;
  }

  ReplayPeer tunnelMtu(int mtu) {
    tunnelMtu = mtu;
    tree.write(tree.netFile("wt0", "mtu"), mtu + "\n");
    return this;
  }

  /** No tunnel interface (NetBird stopped, or netstack mode): the underlay and the cores still move. */
  ReplayPeer withoutTunnel() {
    tree.removeInterface("wt0");
    tunnel = false;
    return this;
  }

  /** A cgroup v2 {@code cpu.max} under {@code cgroup/} (pass {@link #cgroup()} as --path.cgroupfs). */
  ReplayPeer cpuMax(String content) {
    tree.write(cgroup().resolve("cpu.max"), content + "\n");
    return this;
  }

  Path cgroup() {
    return tree.sys().resolve("fs/cgroup");
  }

  /** Starts moving the counters under {@code load}, from where they stand now. */
  synchronized ReplayPeer start(Load load) {
    if (load.busy().length != cores) {
      throw new IllegalArgumentException("load has " + load.busy().length + " cores, the peer " + cores);
    }
    this.base = new long[] {
        tunnel ? tree.counter("wt0", "tx_bytes") : 0, tunnel ? tree.counter("wt0", "rx_bytes") : 0,
        tree.counter("eth0", "tx_bytes"), tree.counter("eth0", "rx_bytes"),
        tunnel ? tree.counter("wt0", "tx_packets") : 0, tunnel ? tree.counter("wt0", "rx_packets") : 0,
        tree.counter("eth0", "tx_packets"), tree.counter("eth0", "rx_packets")};
    this.datapathStat = tree.read(datapathStatFile).strip().split(" ");
    this.cpuBase = new long[][] {cpuNow[0].clone(), cpuNow[1].clone()};
    this.load = load;
    this.t0 = System.nanoTime();
    return this;
  }

  /** The daemon's reading clock: the tree brought up to now, then now. */
  LongSupplier clock() {
    return this::now;
  }

  private synchronized long now() {
    long now = System.nanoTime();
    if (load == null || closed) {
      return now;
    }
    double s = (now - t0) / 1e9;
    int packet = packetBytes > 0 ? packetBytes : tunnelMtu;
    if (tunnel) {
      set("wt0", base[0], base[4], load.downGbps(), s, packet, "tx");
      set("wt0", base[1], base[5], load.upGbps(), s, packet, "rx");
    }
    set("eth0", base[2], base[6], load.underlayTxGbps(), s, packet + 74, "tx");
    set("eth0", base[3], base[7], load.underlayRxGbps(), s, packet + 74, "rx");
    writeCpu(load.busy(), s);
    String[] f = datapathStat.clone();
    f[datapathField] = Long.toString(Long.parseLong(f[datapathField]) + (long) (load.datapathCores() * s * HZ));
    tree.write(datapathStatFile, String.join(" ", f) + "\n");
    return now;
  }

  private void set(String iface, long base, long basePackets, double gbps, double seconds, int packetBytes,
      String side) {
    // Whole packets: every interval's bytes over its packets is the packet size exactly.
    long bytes = (long) (gbps * 1e9 / 8 * seconds) / packetBytes * packetBytes;
    tree.setCounter(iface, side + "_bytes", base + bytes);
    tree.setCounter(iface, side + "_packets", basePackets + bytes / packetBytes);
  }

  /**
   * Rewrites /proc/stat: each core has been {@code busy} (user time) for that share of {@code seconds}. Each core's
   * ticks round at a phase of its own, as a live peer's cores tick independently: in step, 64 cores at 4 % busy
   * would all gain their extra tick in the same half second, a swing of a quarter in the peer's CPU no peer shows.
   */
  private void writeCpu(double[] busy, double seconds) {
    long[] total = new long[10];
    StringBuilder lines = new StringBuilder();
    for (int c = 0; c < cores; c++) {
      double phase = (double) c / cores;
      long user = cpuBase[0][c] + (long) (busy[c] * seconds * HZ + phase);
      long idle = cpuBase[1][c] + (long) ((1 - busy[c]) * seconds * HZ + 1 - phase);
      cpuNow[0][c] = user;
      cpuNow[1][c] = idle;
      long[] f = {user, 0, 0, idle, 0, 0, 0, 0, 0, 0};
      lines.append("cpu").append(c);
      for (int i = 0; i < f.length; i++) {
        lines.append(' ').append(f[i]);
        total[i] += f[i];
      }
      lines.append('\n');
    }
    StringBuilder agg = new StringBuilder("cpu ");
    Arrays.stream(total).forEach(v -> agg.append(' ').append(v));
    tree.write(tree.proc().resolve("stat"), agg + "\n" + lines + statTail);
  }

  /** No write lands in the tree after this: it is deleted next. */
  @Override
  public synchronized void close() {
    closed = true;
  }
}
