package dev.headroom.bench;

import dev.headroom.read.wg.TunnelPeer;
import dev.headroom.read.wg.UapiParser;
import dev.headroom.sample.census.CensusConfig;
import dev.headroom.sample.census.CensusSnapshot;
import dev.headroom.sample.census.TunnelCensus;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One census of N tunnels, off the sampling thread: parsing wireguard-go's {@code get=1} reply (the text
 * {@code exporter/src/bench/fake_uapi.py} serves) and updating the census with it. Run with {@code -prof gc}.
 *
 * <p>Usage: {@code exporter/src/bench/jmh.sh CensusBench -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class CensusBench {
  @Param({"1000", "3000"})
  public int tunnels;

  private String reply;
  private List<TunnelPeer> peers;
  private TunnelCensus census;
  private long now;

  @Setup(Level.Trial)
  public void setUp() {
    long t = 1_764_460_800L;
    StringBuilder b = new StringBuilder("private_key=" + "a".repeat(64) + "\nlisten_port=51820\n");
    for (int i = 0; i < tunnels; i++) {
      long rate = i % 10 == 0 ? 1_000_000 : 2_000;
      b.append("public_key=").append(String.format("%064x", i + 1)).append('\n')
          .append("preshared_key=").append("0".repeat(64)).append('\n')
          .append("protocol_version=1\n")
          .append("endpoint=198.51.100.").append(i % 250 + 1).append(':').append(1024 + i % 60000).append('\n')
          .append("last_handshake_time_sec=").append(t - i % 100).append("\nlast_handshake_time_nsec=0\n")
          .append("tx_bytes=").append(t * rate).append("\nrx_bytes=").append(t * rate / 2).append('\n')
          .append("persistent_keepalive_interval=25\n")
          .append("allowed_ip=100.").append(64 + (i >> 16) % 64).append('.').append((i >> 8) & 255).append('.')
          .append(i & 255).append("/32\n");
    }
    reply = b.append("errno=0\n\n").toString();
    peers = UapiParser.parse(reply);
    census = new TunnelCensus(CensusConfig.defaults());
    now = 0;
    census.update(now, t, peers);
  }

  /** Parsing the reply: the reply's text to one record per tunnel. */
  @Benchmark
  public List<TunnelPeer> parseReply() {
    return UapiParser.parse(reply);
  }

  /** Updating the census with the same tunnels 5 s later (rates, activity, histogram, top talkers). */
  @Benchmark
  public CensusSnapshot update() {
    now += 5_000_000_000L;
    return census.update(now, 1_764_460_800L + now / 1_000_000_000L, peers);
  }
}
