package dev.headroom.cmd;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Which commands warm up beside the parse, and that the warm-up ends on its own without throwing. */
class WarmupTest {
  @Test
  void samplingCommandsAndTheDefaultWarmUpOthersDoNot() throws InterruptedException {
    for (String[] args : new String[][] {{}, {"serve"}, {"--tunnel.interface=wt0"}, {"check"}, {"profile"}}) {
      Thread t = Warmup.begin(args);
      assertNotNull(t, String.join(" ", args));
      assertTrue(t.isDaemon(), "a warm-up never keeps the JVM alive");
      t.join();
    }
    assertNull(Warmup.begin(new String[] {"size", "--users=100"}));
    assertNull(Warmup.begin(new String[] {"help"}));
  }

  @Test
  void theWarmUpFinishesWithoutAnUncaughtException() throws InterruptedException {
    AtomicReference<Throwable> uncaught = new AtomicReference<>();
    Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
    Thread.setDefaultUncaughtExceptionHandler((th, e) -> uncaught.set(e));
    try {
      Thread t = Warmup.begin(new String[] {"serve"});
      t.join(60_000);
      assertFalse(t.isAlive(), "warm-up still running after 60 s");
    } finally {
      Thread.setDefaultUncaughtExceptionHandler(before);
    }
    assertNull(uncaught.get());
  }
}
