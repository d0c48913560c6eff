package dev.vprof.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The main code's compiler flags, read from {@code java/pom.xml} (the default-compile
 * execution's compilerArgs), make a new warning fail the build: javac given those flags refuses a
 * class with one warning and accepts the same class without it. Taking -Werror or the lint out of
 * the POM makes this fail.
 */
class StrictBuildTest {
    @TempDir
    Path tmp;

    static List<String> mainCompilerArgs() throws Exception {
        return compilerArgs("default-compile");
    }

    /** The compilerArgs of the compiler plugin's execution {@code id} in java/pom.xml. */
    static List<String> compilerArgs(String id) throws Exception {
        String pom = Files.readString(Path.of("pom.xml"));
        int exec = pom.indexOf("<id>" + id + "</id>");
        assertTrue(exec > 0, "java/pom.xml configures no " + id + " execution");
        int end = pom.indexOf("</execution>", exec);
        Matcher m = Pattern.compile("<arg>([^<]+)</arg>").matcher(pom.substring(exec, end));
        List<String> args = new ArrayList<>();
        while (m.find()) {
            String arg = m.group(1).trim();
            // The forked javac's JVM options and the Error Prone plugin are not javac's own flags.
            if (!arg.startsWith("-J") && !arg.startsWith("-Xplugin:")) {
                args.add(arg);
            }
        }
        return args;
    }

    private int compile(List<String> flags, String source) throws Exception {
        Path src = tmp.resolve("Sample.java");
        Files.writeString(src, source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "the tests run on a JDK");
        List<String> args = new ArrayList<>(flags);
        args.addAll(List.of("-d", tmp.resolve("out").toString(), src.toString()));
        return javac.run(null, null, new PrintStream(OutputStream.nullOutputStream()), args.toArray(String[]::new));
    }

    @Test
    void aNewWarningFailsTheMainBuild() throws Exception {
        aNewWarningFails(mainCompilerArgs());
    }

    @Test
    void errorProneChecksTheMainCode() throws Exception {
        String pom = Files.readString(Path.of("pom.xml"));
        int exec = pom.indexOf("<id>default-compile</id>");
        String main = pom.substring(exec, pom.indexOf("</execution>", exec));
        assertTrue(main.contains("<arg>-Xplugin:ErrorProne"), "the main compile runs Error Prone");
        assertTrue(main.contains("<artifactId>error_prone_core</artifactId>"), "Error Prone is on the processor path");
    }

    @Test
    void aNewWarningFailsTheTestBuild() throws Exception {
        aNewWarningFails(compilerArgs("default-testCompile"));
    }

    private void aNewWarningFails(List<String> flags) throws Exception {
        assertTrue(flags.contains("-Werror"), "warnings are errors: " + flags);
        assertTrue(flags.stream().anyMatch(f -> f.startsWith("-Xlint:all")), "every lint is on: " + flags);
        String clean = "public class Sample extends Exception { private static final long serialVersionUID = 1L; }";
        String warns = "public class Sample extends Exception { }"; // [serial]: no serialVersionUID
        assertEquals(0, compile(flags, clean), "the clean class compiles");
        assertFalse(compile(flags, warns) == 0, "a class with one lint warning must not compile");
        String raw = "import java.util.*; public class Sample { List l = new ArrayList(); }"; // [rawtypes]
        assertFalse(compile(flags, raw) == 0, "a raw type must not compile");
    }
}
