// For crosscheck.sh: prints Demangler.demangle(line) for each line of standard input.
// Run with the compiled classes on the class path: java -cp java/target/classes CrossCheck.java

import dev.vprof.names.Demangler;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;

public class CrossCheck {
    public static void main(String[] args) throws IOException {
        var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (var out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                out.write(Demangler.demangle(line));
                out.newLine();
            }
        }
    }
}
