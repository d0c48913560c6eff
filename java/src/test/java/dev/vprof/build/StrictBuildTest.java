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
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The compiler flags of the main and the test compile, read from {@code java/pom.xml} (the
 * compiler plugin's shared configuration, merged with an execution's own as Maven merges them),
 * make a new warning fail the build: javac given those flags refuses a class with one warning and
 * accepts the same class without it. Taking -Werror, the lint or Error Prone out of either
 * execution, or switching Error Prone's warnings off, makes this fail.
 */
class StrictBuildTest {
    @TempDir
    Path tmp;

    static List<String> mainCompilerArgs() throws Exception {
        return compilerArgs("default-compile");
    }

    /** javac's own flags among the args execution {@code id} of the compiler plugin gets. */
    static List<String> compilerArgs(String id) throws Exception {
        List<String> args = new ArrayList<>();
        for (String arg : executionArgs(id)) {
            // The forked javac's JVM options and the Error Prone plugin are not javac's own flags.
            if (!arg.startsWith("-J") && !arg.startsWith("-Xplugin:")) {
                args.add(arg);
            }
        }
        return args;
    }

    /** The compiler plugin's element in java/pom.xml. */
    private static Element compilerPlugin() throws Exception {
        Document pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(Path.of("pom.xml").toFile());
        NodeList plugins = pom.getElementsByTagName("plugin");
        for (int i = 0; i < plugins.getLength(); i++) {
            Element plugin = (Element) plugins.item(i);
            if (text(child(plugin, "artifactId")).equals("maven-compiler-plugin")) {
                return plugin;
            }
        }
        throw new AssertionError("java/pom.xml configures no maven-compiler-plugin");
    }

    /**
     * The plugin-level configuration merged with execution {@code id}'s own, as Maven merges them:
     * an element the execution sets replaces the shared one, unless it asks to append.
     */
    private static Element effective(String id, String name) throws Exception {
        Element plugin = compilerPlugin();
        Element shared = child(child(plugin, "configuration"), name);
        Element executions = child(plugin, "executions");
        if (executions != null) {
            for (Element exec : children(executions, "execution")) {
                Element own = child(child(exec, "configuration"), name);
                if (text(child(exec, "id")).equals(id) && own != null) {
                    assertFalse(own.getAttribute("combine.children").equals("append") && shared != null,
                            "execution " + id + " appends to the shared " + name + "; set them in one place");
                    return own;
                }
            }
        }
        return shared;
    }

    /** Every arg execution {@code id} of the compiler plugin gets, the Error Prone plugin's included. */
    private static List<String> executionArgs(String id) throws Exception {
        Element args = effective(id, "compilerArgs");
        assertNotNull(args, "java/pom.xml gives the " + id + " execution no compilerArgs");
        List<String> out = new ArrayList<>();
        for (Element arg : children(args, "arg")) {
            out.add(text(arg));
        }
        return out;
    }

    private static Element child(Element parent, String name) {
        if (parent == null) {
            return null;
        }
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                out.add(e);
            }
        }
        return out;
    }

    private static String text(Element e) {
        return e == null ? "" : e.getTextContent().trim();
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

    @ParameterizedTest
    @ValueSource(strings = {"default-compile", "default-testCompile"})
    void errorProneChecksTheCode(String id) throws Exception {
        List<String> args = executionArgs(id);
        List<String> plugin = args.stream().filter(a -> a.startsWith("-Xplugin:ErrorProne")).toList();
        assertEquals(1, plugin.size(), id + " runs Error Prone once: " + args);
        List<String> flags = List.of(plugin.get(0).split("\\s+"));
        for (String off : List.of("-XepDisableAllWarnings", "-XepDisableAllChecks")) {
            assertFalse(flags.contains(off), id + " runs Error Prone with " + off);
        }
        assertTrue(args.contains("-Werror"), id + " fails on Error Prone's warnings too");
        Element paths = effective(id, "annotationProcessorPaths");
        assertNotNull(paths, id + " has Error Prone on its processor path");
        assertTrue(children(paths, "path").stream().anyMatch(p -> text(child(p, "artifactId")).equals("error_prone_core")),
                id + " has Error Prone on its processor path");
        assertEquals("true", text(effective(id, "fork")), id + " forks the javac Error Prone runs in");
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
