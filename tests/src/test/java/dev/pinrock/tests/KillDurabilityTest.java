package dev.pinrock.tests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.pinrock.Cursor;
import dev.pinrock.Keyspace;
import dev.pinrock.RocksDb;
import dev.pinrock.Transaction;

/**
 * Kills a writing JVM ({@link KillWorkload}: four threads writing at once,
 * batches of puts, deletes, a range deletion and a merge over two column
 * families) with SIGKILL at random moments, round after round on one
 * database, and checks after each kill that the database opens and holds,
 * for each writer, exactly its batches 0 to some m, each applied whole (its
 * marker, its counter increment, its delete and range deletion of the
 * previous batch's keys and its own keys: all or nothing), that m is at least
 * the last batch the child reported as durable, and that every value is
 * right (nothing garbled). No batch survives while an earlier one of its
 * writer is lost. A writer prints nothing on stderr: anything it printed
 * before its kill (an exception on a writer thread, a sanitizer's report)
 * fails the round.
 *
 * <ul>
 *   <li>With {@code sync=true}: every write that returned survives.
 *   <li>With the default write options (logged, not synced): every write that
 *       returned survives the death of the process, since the log is in the
 *       operating system's hands (a machine crash is another matter: see
 *       docs/reliability.md).
 *   <li>With the write-ahead log disabled: every write before the last
 *       {@code flush()} that returned survives; later ones may be lost, never
 *       garbled.
 *   <li>In transactions with two-phase commit (synced): every committed one
 *       survives, and one prepared but not committed is recovered after the
 *       kill, named, to be committed or rolled back (each at random), and
 *       then is there whole or not at all.
 *   <li>Logged, with the counters summed by a merge operator written in Java
 *       and compactions (frequent) calling a compaction filter written in
 *       Java: every write that returned survives a kill during them, and a
 *       compaction of everything after the kill removes what the filter
 *       removes.
 * </ul>
 *
 * <p>{@code -Dpinrock.kill.rounds=N} sets the rounds per mode (default 50 with
 * sync, 15 in each other mode); docs/reliability.md has the long run.
 */
class KillDurabilityTest {
    @TempDir
    Path dir;

    private final long seed = Long.getLong("pinrock.kill.seed", System.nanoTime());
    private final Random random = new Random(seed);
    /** How many prepared transactions mode two-phase found after its kills, and committed. */
    private int recoveredPrepared;
    private int committedRecovered;

    @Test
    void everySyncedWriteSurvivesSigkill() throws Exception {
        killRounds("sync", Integer.getInteger("pinrock.kill.rounds", 50));
    }

    @Test
    void everyLoggedWriteSurvivesSigkillOfTheProcess() throws Exception {
        killRounds("no-sync", Integer.getInteger("pinrock.kill.rounds", 50) * 3 / 10);
    }

    @Test
    void withoutTheLogEveryFlushedWriteSurvivesSigkill() throws Exception {
        killRounds("no-wal", Integer.getInteger("pinrock.kill.rounds", 50) * 3 / 10);
    }

    @Test
    void everyLoggedWriteSurvivesSigkillDuringCompactionsThatCallJava() throws Exception {
        killRounds("java-callbacks", Integer.getInteger("pinrock.kill.rounds", 50) * 3 / 10);
    }

    @Test
    void aPreparedTransactionSurvivesSigkillAndIsDecidedAfterIt() throws Exception {
        killRounds("two-phase", Integer.getInteger("pinrock.kill.rounds", 50) * 3 / 10);
    }

    private void killRounds(String mode, int rounds) throws Exception {
        Path db = dir.resolve("db");
        long[] durable = new long[KillWorkload.WRITERS]; // each writer's batches up to this one must be present
        long[] next = new long[KillWorkload.WRITERS];
        Arrays.fill(durable, -1);
        int killedWhileWriting = 0;
        int killedWhileCompacting = 0;
        for (int round = 0; round < rounds; round++) {
            String context = mode + " round " + round + " (seed " + seed + ", replay with -Dpinrock.kill.seed=" + seed + ")";
            // One round in five (the third of every five, so that the three rounds of a
            // short run have one) is killed at any moment from the start (also while
            // recovering at open); the others 50 to 350 ms after the writer's first report
            // after the open (on a slow machine, a two-phase writer's first commit came
            // later than 350 ms after the open, and too few kills hit the writes). In mode
            // java-callbacks, every other round (the first included) is killed instead
            // within 1 ms of the writer's first report of a compaction begun: kills at
            // random moments missed every compaction in 3 rounds under the sanitizers.
            boolean anyMoment = round % 5 == 2;
            boolean atCompaction = !anyMoment && mode.equals("java-callbacks") && round % 2 == 0;
            List<String> reported = runAndKill(db, mode, next, anyMoment ? Start.ANY_MOMENT
                    : atCompaction ? Start.COMPACTING : Start.WRITING,
                    anyMoment ? random.nextInt(1500) : atCompaction ? random.nextInt(2) : 50 + random.nextInt(300));
            for (String line : reported) {
                String[] words = line.split(" ");
                if (words[0].equals("ack")) {
                    int writer = Integer.parseInt(words[1]);
                    durable[writer] = Math.max(durable[writer], Long.parseLong(words[2]));
                } else if (words[0].equals("flushed")) {
                    for (int w = 0; w < KillWorkload.WRITERS; w++) {
                        durable[w] = Math.max(durable[w], Long.parseLong(words[1 + w]));
                    }
                }
            }
            if (reported.contains("open") && reported.size() > 1) {
                killedWhileWriting++;
            }
            if (reported.stream().filter("compacting"::equals).count()
                    > reported.stream().filter("compacted"::equals).count()) {
                killedWhileCompacting++;
            }
            long[] rolledBack = new long[KillWorkload.WRITERS];
            Arrays.fill(rolledBack, -1);
            if (mode.equals("two-phase")) {
                decidePrepared(db, reported, durable, rolledBack, context);
            }
            long[] highest = verify(db, mode, durable, next, context);
            for (int w = 0; w < KillWorkload.WRITERS; w++) {
                if (rolledBack[w] >= 0) {
                    assertEquals(rolledBack[w] - 1, highest[w], context + ": writer " + w + "'s batch "
                            + rolledBack[w] + " was rolled back after the kill, yet batches up to " + highest[w]
                            + " are there");
                }
            }
            for (int w = 0; w < KillWorkload.WRITERS; w++) {
                next[w] = highest[w] + 1;
            }
        }
        System.out.println(mode + ": " + rounds + " kills (" + killedWhileWriting + " while writing"
                + (mode.equals("java-callbacks") ? ", " + killedWhileCompacting + " while compacting" : "") + "), "
                + Arrays.stream(next).sum() + " batches of " + KillWorkload.WRITERS + " writers, each whole, "
                + Arrays.stream(durable).map(d -> d + 1).sum() + " of them durable, all present"
                + (mode.equals("two-phase") ? "; " + recoveredPrepared + " prepared transactions recovered, "
                        + committedRecovered + " of them committed" : ""));
        assertTrue(killedWhileWriting >= rounds / 2, "too few kills hit the writes: " + killedWhileWriting);
        if (mode.equals("java-callbacks")) {
            assertTrue(killedWhileCompacting > 0, "no kill hit a compaction");
        }
        if (mode.equals("two-phase")) {
            assertTrue(recoveredPrepared > 0, "no kill left a prepared transaction to recover");
        }
    }

    /**
     * After a kill of mode two-phase: opens the database transactional and
     * checks its recovered prepared transactions: at most one per writer,
     * the batch after its last acknowledged one, and every batch reported
     * prepared but not acknowledged is either among them or committed
     * before the kill. Commits them all or rolls them all back (at random);
     * a committed one is durable from then on (durable), a rolled back one
     * must be absent (rolledBack, per writer).
     */
    private void decidePrepared(Path db, List<String> reported, long[] durable, long[] rolledBack, String context) {
        long[] prepared = new long[KillWorkload.WRITERS];
        Arrays.fill(prepared, -1);
        for (String line : reported) {
            String[] words = line.split(" ");
            if (words[0].equals("prepared")) {
                int writer = Integer.parseInt(words[1]);
                prepared[writer] = Math.max(prepared[writer], Long.parseLong(words[2]));
            }
        }
        if (!Files.exists(db.resolve("CURRENT"))) {
            return; // killed while the first open created it: verify checks nothing was acknowledged
        }
        boolean commit = random.nextBoolean();
        long[] recovered = new long[KillWorkload.WRITERS];
        Arrays.fill(recovered, -1);
        try (RocksDb database = RocksDb.openTransactional(db, KillWorkload.options(), KillWorkload.transactions())) {
            for (Transaction transaction : database.preparedTransactions()) {
                String name = transaction.name().orElseThrow();
                int writer = Integer.parseInt(name.substring(0, name.indexOf('-')));
                long batch = Long.parseLong(name.substring(name.indexOf('-') + 1));
                assertEquals(-1, recovered[writer], context + ": two prepared transactions of writer " + writer);
                assertTrue(batch > durable[writer], context + ": transaction " + name
                        + " is still prepared though its commit was acknowledged");
                recovered[writer] = batch;
                recoveredPrepared++;
                if (commit) {
                    committedRecovered++;
                    transaction.commit();
                    durable[writer] = batch;
                } else {
                    transaction.rollback();
                    rolledBack[writer] = batch;
                }
                transaction.close();
            }
        }
        for (int w = 0; w < KillWorkload.WRITERS; w++) {
            if (prepared[w] > durable[w] && recovered[w] != prepared[w]) {
                // Reported prepared, not recovered so: its commit reached the log before the kill.
                durable[w] = prepared[w];
            }
        }
    }

    /**
     * Starts the child, kills it with SIGKILL delayMillis after it started (or
     * after it opened the database), and returns the lines it printed; fails,
     * with what it printed on stderr, when it ended before the kill or printed
     * anything there.
     */
    /** What the delay before a writer's kill counts from. */
    private enum Start {
        /** The writer's start. */
        ANY_MOMENT,
        /** Its first report after the open. */
        WRITING,
        /** Its first report of a compaction begun. */
        COMPACTING
    }

    private List<String> runAndKill(Path db, String mode, long[] first, Start start, long delayMillis)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "--enable-native-access=ALL-UNNAMED"));
        command.addAll(ChildJvm.sameLibrary());
        command.addAll(List.of("-cp", ChildJvm.testClassPath(), KillWorkload.class.getName(), db.toString(), mode));
        Arrays.stream(first).mapToObj(String::valueOf).forEach(command::add);
        // Its stderr is kept for the failure message (e.g. a sanitizer's report).
        Path stderr = dir.resolve("writer-stderr.log");
        Process child = new ProcessBuilder(command).redirectError(stderr.toFile()).start();
        List<String> lines = new ArrayList<>();
        // Counted down by the writer's first two lines ("open" and its first report), or its end.
        CountDownLatch wroteOrEnded = new CountDownLatch(2);
        CountDownLatch compactingOrEnded = new CountDownLatch(1);
        Thread reader = Thread.ofPlatform().start(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                    wroteOrEnded.countDown();
                    if (line.equals("compacting")) {
                        compactingOrEnded.countDown();
                    }
                }
            } catch (IOException e) {
                synchronized (lines) {
                    lines.add("unreadable: " + e);
                }
            } finally {
                wroteOrEnded.countDown();
                wroteOrEnded.countDown();
                compactingOrEnded.countDown();
            }
        });
        if (start != Start.ANY_MOMENT) {
            assertTrue(wroteOrEnded.await(60, TimeUnit.SECONDS), "the writer did not open the database and write");
        }
        if (start == Start.COMPACTING) {
            assertTrue(compactingOrEnded.await(60, TimeUnit.SECONDS), "the writer began no compaction in 60 s");
        }
        boolean exited = child.waitFor(delayMillis, TimeUnit.MILLISECONDS);
        if (exited) {
            reader.join();
            throw new AssertionError("the writer exited by itself with " + child.exitValue() + "\n"
                    + Files.readString(stderr));
        }
        child.destroyForcibly(); // SIGKILL
        assertEquals(128 + 9, child.waitFor(), "the writer was not killed by SIGKILL");
        // The writer prints nothing to stderr: what it printed there is an error it met before the kill
        // (an exception on a writer thread, a sanitizer's report cut short by the kill).
        assertEquals("", Files.readString(stderr), "the writer reported an error before it was killed");
        reader.join();
        synchronized (lines) {
            return List.copyOf(lines);
        }
    }

    /**
     * Opens the database and checks, for each writer, that it holds exactly the
     * writer's batches 0 to some highest, each whole, that highest is at least
     * durable (every batch reported durable survived) and at least first - 1 (no
     * batch of an earlier round is lost); returns each writer's highest.
     * Counters are in the family counts (the default one in mode no-wal);
     * junk keys are left aside, and in mode java-callbacks a compaction of
     * everything must remove them all (its filter is written in Java).
     */
    private long[] verify(Path db, String mode, long[] durable, long[] first, String context) {
        String counts = mode.equals("no-wal") ? null : KillWorkload.COUNTS;
        long[] highest = new long[KillWorkload.WRITERS];
        Arrays.fill(highest, -1);
        // A kill while the first open creates the database may leave its directory without CURRENT:
        // no database yet, which is right as long as nothing was acknowledged.
        if (!Files.exists(db.resolve("CURRENT"))) {
            assertEquals(-1, Arrays.stream(durable).max().orElseThrow(),
                    context + ": no database on disk but writes were acknowledged");
            return highest;
        }
        List<List<String>> deleted = new ArrayList<>();
        List<List<String>> ranged = new ArrayList<>();
        for (int w = 0; w < KillWorkload.WRITERS; w++) {
            deleted.add(new ArrayList<>());
            ranged.add(new ArrayList<>());
        }
        long[] counters = new long[KillWorkload.WRITERS];
        boolean java = mode.equals("java-callbacks");
        try (RocksDb database = RocksDb.open(db, KillWorkload.options(mode)); Cursor cursor = database.cursor()) {
            Keyspace counterFamily = counts == null ? database : database.columnFamily(counts);
            for (int w = 0; w < KillWorkload.WRITERS; w++) {
                counters[w] = counterFamily == null ? 0 : KillWorkload.count(counterFamily.get(
                        KillWorkload.counter(w)));
            }
            for (boolean on = cursor.first(); on; on = cursor.next()) {
                String key = new String(cursor.keyBytes(), StandardCharsets.US_ASCII);
                if (key.startsWith("c")) {
                    assertEquals(null, counts, context + ": counter " + key + " in the default family");
                    continue; // a counter, read above
                }
                if (key.startsWith("j")) {
                    continue; // junk, for the compaction filter of mode java-callbacks
                }
                int writer = key.charAt(1) - '0';
                long batch = Long.parseLong(key.substring(3, 13));
                assertArrayEquals(KillWorkload.value(writer, batch), cursor.valueBytes(),
                        context + ": wrong value of key " + key);
                switch (key.charAt(0)) {
                    case 'b' -> {
                        assertEquals(highest[writer] + 1, batch, context + ": batch " + (highest[writer] + 1)
                                + " of writer " + writer + " is missing though its batch " + batch + " survived"
                                + (highest[writer] + 1 <= durable[writer] ? " (it was acknowledged)" : ""));
                        highest[writer] = batch;
                    }
                    case 'd' -> deleted.get(writer).add(key);
                    case 'r' -> ranged.get(writer).add(key);
                    default -> throw new AssertionError(context + ": a key no batch writes: " + key);
                }
            }
            if (java) {
                database.compactRange();
                try (Cursor afterCompaction = database.cursor()) {
                    assertTrue(!afterCompaction.seek(new byte[] {'j'}) || afterCompaction.keyBytes()[0] != 'j',
                            context + ": a compaction of everything left junk its Java filter removes");
                }
            }
        }
        for (int w = 0; w < KillWorkload.WRITERS; w++) {
            long m = highest[w];
            String writer = context + ", writer " + w + " (batches 0 to " + m + " survived)";
            assertTrue(m >= durable[w], writer + ": its acknowledged batches from " + (m + 1) + " to "
                    + durable[w] + " are missing");
            assertTrue(m >= first[w] - 1, writer + ": batches of earlier rounds from " + (m + 1) + " on are gone");
            assertEquals(m + 1, counters[w], writer + ": its counter disagrees (a merge was lost or applied"
                    + " without its batch)");
            List<String> lastBatchRanged = new ArrayList<>();
            for (int i = 0; m >= 0 && i < KillWorkload.rangedKeys(m); i++) {
                lastBatchRanged.add(new String(KillWorkload.ranged(w, m, i), StandardCharsets.US_ASCII));
            }
            assertEquals(m < 0 ? List.of() : List.of(new String(KillWorkload.deleted(w, m),
                    StandardCharsets.US_ASCII)), deleted.get(w), writer + ": the d keys show a delete lost or"
                    + " applied without its batch");
            assertEquals(lastBatchRanged, ranged.get(w), writer + ": the r keys show a range deletion lost or"
                    + " applied without its batch");
        }
        return highest;
    }
}
