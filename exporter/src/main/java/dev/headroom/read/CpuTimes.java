package dev.headroom.read;

/**
 * Cumulative time one core spent in each mode since boot, in milliseconds, keyed by the kernel's CPU id.
 *
 * <p>Usage: {@code long busy = t.total() - t.idle() - t.iowait();}
 */
public record CpuTimes(
    int cpu, long user, long nice, long system, long idle, long iowait, long irq, long softirq, long steal) {

  /** Mode names in the order {@link #mode(int)} returns them; also the metric label values. */
  public static final String[] MODES = {"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"};

  public long mode(int i) {
    return switch (i) {
      case 0 -> user;
      case 1 -> nice;
      case 2 -> system;
      case 3 -> idle;
      case 4 -> iowait;
      case 5 -> irq;
      case 6 -> softirq;
      case 7 -> steal;
      default -> throw new IndexOutOfBoundsException(i);
    };
  }

  public long total() {
    return user + nice + system + idle + iowait + irq + softirq + steal;
  }

  /** Idle and iowait both mean the core had nothing to run. */
  public long notBusy() {
    return idle + iowait;
  }

  static CpuTimes of(int cpu, long[] ms) {
    return new CpuTimes(cpu, ms[0], ms[1], ms[2], ms[3], ms[4], ms[5], ms[6], ms[7]);
  }
}
