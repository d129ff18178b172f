package dev.headroom.bench;

import dev.headroom.read.CounterFileReader;
import dev.headroom.read.ReadException;
import dev.headroom.read.Sysfs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Where a sysfs read spends: one counter file the way {@link Sysfs} reads it today against a reused buffer,
 * and the missing or refusing files every sample meets (a TUN-less interface's {@code tun_flags}, the
 * {@code speed} of {@code lo}, which fails with EINVAL). Real files of this machine's {@code lo}.
 *
 * <p>Usage: {@code exporter/src/bench/jmh.sh FileReadBench -prof gc}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
// The service's JVM flags come from the command line (-jvmArgsAppend, see exporter/src/bench/jmh.sh), read
// from the packaged launcher, so the benchmarks and the service never drift apart.
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class FileReadBench {
  private final Path counter = Path.of("/sys/class/net/lo/statistics/rx_bytes");
  private final Path missing = Path.of("/sys/class/net/lo/tun_flags");
  private final Path speed = Path.of("/sys/class/net/lo/speed");
  private final CounterFileReader counters = new CounterFileReader();

  /** The way counters were read first: Files.readString (sysfs says 4096 bytes: a 4 KiB array) + parse. */
  @Benchmark
  public long counterReadString() throws IOException {
    return Long.parseUnsignedLong(Files.readString(counter).strip());
  }

  /** The way the sampler reads them now: the product's reader, one reused 64-byte buffer, no String. */
  @Benchmark
  public long counterReusedBuffer() throws ReadException {
    return counters.readUnsigned(counter);
  }

  /** Files.exists on a missing file: JDK 17 builds a NoSuchFileException inside. */
  @Benchmark
  public boolean missingFilesExists() {
    return Files.exists(missing);
  }

  /** Sysfs.readOptional on a missing file (the {@code threaded} file on kernels without it). */
  @Benchmark
  public Optional<String> missingReadOptional() throws IOException {
    return Sysfs.readOptional(missing);
  }

  /** lo's speed: the read fails with EINVAL, an IOException with a stack trace, every sample. */
  @Benchmark
  public OptionalLong speedEinval() {
    return Sysfs.readSpeedMbps(speed);
  }

  /** A present small file read the way readOptional does (operstate, uevent). */
  @Benchmark
  public String presentReadString() throws IOException {
    return Files.readString(Path.of("/sys/class/net/lo/operstate"), StandardCharsets.US_ASCII);
  }
}
