// An honest bot in Java (docs/protocol.md, section 6): answers every request with a random
// option "#k", k < count; no JSON library needed.  Used by tests/tournament/test_sandbox_runtimes.py
// to show that a JVM starts and plays under the sandbox's default limits.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Random;

public class RandomBot {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Random rng = new Random(7);
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.split(" ", 4);
            switch (words[0]) {
                case "trickcore":
                    say("id name java-random\nid author trickcore tests\ntrickcoreok 1");
                    break;
                case "isready":
                    say("readyok " + words[1]);
                    break;
                case "request":
                    say("action " + words[1] + " #" + rng.nextInt(Integer.parseInt(words[2])));
                    break;
                case "quit":
                    return;
                default:
                    break;
            }
        }
    }

    private static void say(String text) {
        System.out.println(text);
        System.out.flush();
    }
}
