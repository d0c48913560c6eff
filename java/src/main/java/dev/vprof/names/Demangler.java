package dev.vprof.names;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Demangles Itanium C++ ABI names (the {@code _Z...} symbols that CUPTI reports for CUDA
 * kernels) into the text that binutils' {@code c++filt} prints for them.
 *
 * <p>The names come from capture files, which may be damaged or hostile, so this is a bounded,
 * pure-Java reimplementation rather than a call into libstdc++: input length, output length,
 * recursion depth and the amount of printing work are all capped, and any name that breaks a
 * cap, is malformed, or uses a construct this class does not know is returned unchanged.
 * Returning the mangled name is always acceptable; returning a demangling that differs from
 * {@code c++filt} is not, so doubtful constructs are refused rather than guessed.
 *
 * <p>Work happens in two steps. A recursive-descent {@code Parser} follows the grammar of the
 * ABI specification and builds an immutable tree of {@code Node}s, keeping the substitution
 * table ({@code S_}, {@code S0_}, ...) as references to earlier subtrees. A {@code Printer}
 * then walks that tree. Template parameters ({@code T_}) are resolved while printing, against
 * the template whose function is being printed, because that is how {@code c++filt} decides
 * what they mean (and when it refuses). Where {@code c++filt}'s output has quirks (spacing,
 * parentheses, which qualifiers a declarator absorbs), the printer reproduces them.
 *
 * <p>One deliberate difference: by default {@code c++filt} refuses any name longer than 1024
 * characters (a stack precaution of its own; long CUTLASS kernel names hit it). This class
 * demangles those up to {@link #MAX_INPUT}, printing what {@code c++filt --no-recurse-limit}
 * prints.
 */
public final class Demangler {
    /** Input longer than this is returned unchanged. */
    public static final int MAX_INPUT = 4096;
    /** Output longer than this: give up and return the input unchanged. */
    public static final int MAX_OUTPUT = 8192;

    /** Nesting limit for both the parser and the printer; real kernel names stay far below. */
    private static final int MAX_DEPTH = 256;
    /**
     * Printing work limit. Substitutions make the tree a DAG, so a short name can describe an
     * exponentially large output; the output cap stops most of that, and this stops the rest
     * (subtrees that print nothing, such as empty packs, repeated many times).
     */
    private static final int MAX_PRINT_STEPS = 200_000;

    private Demangler() {}

    /**
     * The demangled form of {@code name}, exactly as binutils' c++filt prints it, or {@code name}
     * itself when it is not a mangled name, uses something this demangler does not handle, is
     * malformed, or would exceed the bounds. Never throws (except NPE for null). Thread-safe; no
     * shared mutable state.
     */
    public static String demangle(String name) {
        Objects.requireNonNull(name, "name");
        if (name.length() > MAX_INPUT || !name.startsWith("_Z") || !mangledAlphabet(name)
                || looksLikeRust(name)) {
            return name;
        }
        try {
            Node root = new Parser(name).mangledName();
            return new Printer().print(root);
        } catch (Unsupported e) {
            return name;
        } catch (StackOverflowError e) {
            // The depth limits keep recursion far from the default stack size; this only
            // matters on a thread created with a tiny stack, where giving up is still right.
            return name;
        }
    }

    /** Mangled names use only these characters; anything else is not ours to interpret. */
    private static boolean mangledAlphabet(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '_' || c == '.' || c == '$';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /**
     * Rust's legacy symbols are Itanium-shaped ({@code _ZN...17h<hash>E}) but c++filt
     * demangles them with Rust's rules (escapes, dropped clone suffixes); leave them alone.
     */
    private static boolean looksLikeRust(String name) {
        if (!name.startsWith("_ZN")) {
            return false;
        }
        int end = name.indexOf('.');
        if (end < 0) {
            end = name.length();
        }
        int hash = end - 20; // "17h" + 16 hex digits + "E"
        if (hash < 3 || !name.startsWith("17h", hash) || name.charAt(end - 1) != 'E') {
            return false;
        }
        for (int i = hash + 3; i < end - 1; i++) {
            char c = name.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    /** Thrown for anything malformed, unsupported or over a limit; the caller returns the input. */
    private static final class Unsupported extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unsupported() {
            super(null, null, false, false); // control flow only: no stack trace needed
        }
    }

    private static Unsupported fail() {
        return new Unsupported();
    }

    // ---------------------------------------------------------------------------------------
    // The tree. Each record is one construct of the ABI grammar. Identity matters: a
    // back-reference is the very same object, and the printer keys some state on identity.
    // ---------------------------------------------------------------------------------------

    private sealed interface Node
            permits Name, Builtin, StdSub, Qual, Local, DefaultArg, Template, Args, Tagged, Ctor,
                    Operator, LiteralOperator, Conversion, Lambda, Unnamed, TemplateParam,
                    FunctionParam, PackExpansion, CvQual, Modified, PtrMem, ArrayType,
                    VectorType, FunctionType, Encoding, Special, Clone, Literal, Unary, Binary,
                    Trinary, Cast, Decltype, ExprList, FnQuals, NameMod {}

    /** An identifier, or fixed text such as {@code (anonymous namespace)} or {@code auto}. */
    private record Name(String text) implements Node {}

    /** How a literal of a builtin type is printed ({@code 5u}, {@code true}, {@code (char)65}). */
    private enum Style { DEFAULT, INT, UNSIGNED, LONG, ULONG, LLONG, ULLONG, BOOL, FLOAT, VOID }

    private record Builtin(String text, Style style) implements Node {}

    /** {@code St}, {@code Sa}, {@code Ss}, ...: printed in c++filt's verbose (full) form. */
    private record StdSub(String text) implements Node {}

    /** {@code scope::name}. */
    private record Qual(Node scope, Node name) implements Node {}

    /** {@code function::entity}, for entities declared inside a function body. */
    private record Local(Node function, Node entity) implements Node {}

    /** {@code {default arg#N}::entity}: an entity inside a default argument. */
    private record DefaultArg(int index, Node entity) implements Node {}

    /** {@code name<args>}. */
    private record Template(Node name, Args args) implements Node {}

    /** A template argument list; nested inside another list it is an argument pack. */
    private record Args(List<Node> items) implements Node {}

    /** {@code name[abi:tag]}. */
    private record Tagged(Node name, String tag) implements Node {}

    /** A constructor or destructor, named after the last source name seen (as c++filt does). */
    private record Ctor(Node name, boolean destructor) implements Node {}

    /** An operator: its two-letter code, how c++filt prints it, and its operand count. */
    private record Op(String code, String text, int arity) {}

    /** {@code operator+}, {@code operator new} and the like, as a function name. */
    private record Operator(Op op) implements Node {}

    /** {@code operator"" _suffix}. */
    private record LiteralOperator(Node suffix) implements Node {}

    /** {@code operator type}. */
    private record Conversion(Node type) implements Node {}

    /** A closure type: {@code {lambda(params)#N}}. */
    private record Lambda(List<Node> params, int index) implements Node {}

    /** {@code {unnamed type#N}}. */
    private record Unnamed(int index) implements Node {}

    /** {@code T_} ({@code index} 0), {@code T0_} (1), ...: resolved while printing. */
    private record TemplateParam(int index) implements Node {}

    /** {@code {parm#N}} in a dependent expression; index 0 means {@code this}. */
    private record FunctionParam(int index) implements Node {}

    /** {@code Dp}: a pattern repeated for each element of the pack it mentions. */
    private record PackExpansion(Node pattern) implements Node {}

    /** One of {@code const}, {@code volatile}, {@code restrict} applied to a type. */
    private record CvQual(Node inner, String word) implements Node {}

    private enum Kind { POINTER, LREF, RREF, COMPLEX, IMAGINARY }

    /** {@code P}, {@code R}, {@code O}, {@code C} or {@code G} applied to a type. */
    private record Modified(Kind kind, Node inner) implements Node {}

    /** {@code member Class::*}. */
    private record PtrMem(Node cls, Node member) implements Node {}

    /** {@code elem [dim]}; dim may be null (unknown bound). */
    private record ArrayType(Node dim, Node elem) implements Node {}

    /** {@code elem __vector(dim)}. */
    private record VectorType(Node dim, Node elem) implements Node {}

    /**
     * A function type. {@code ret} is null when the mangling has no return type; {@code quals}
     * are the qualifiers of the implicit object parameter and the exception specification, in
     * printing order ({@code const volatile &}).
     */
    private record FunctionType(Node ret, List<Node> params, List<String> quals) implements Node {}

    /** A function: its name, the qualifiers of its nested name, and its type. */
    private record Encoding(Node name, List<String> quals, FunctionType type) implements Node {}

    /** {@code vtable for X}, {@code guard variable for X}, thunks and the like. */
    private record Special(String prefix, Node inner) implements Node {}

    /** {@code encoding [clone .suffix]}. */
    private record Clone(Node encoding, String suffix) implements Node {}

    /** {@code L <type> [n] <value> E}: the value is kept as spelled. */
    private record Literal(Node type, String value, boolean negative) implements Node {}

    /** Operators in dependent expressions (template arguments, decltype, array bounds). */
    private record Unary(Op op, Node operand) implements Node {}

    private record Binary(Op op, Node left, Node right) implements Node {}

    private record Trinary(Op op, Node first, Node second, Node third) implements Node {}

    /** A C-style cast {@code (type)expr}. */
    private record Cast(Node type, Node operand) implements Node {}

    /** {@code decltype (expression)}. */
    private record Decltype(Node expression) implements Node {}

    /** The arguments of a call in an expression. */
    private record ExprList(List<Node> items) implements Node {}

    /** Printer-only: qualifiers waiting to be printed after a parameter list. */
    private record FnQuals(List<String> words) implements Node {}

    /** Printer-only: a function's name, waiting to be printed inside its declarator. */
    private record NameMod(Node name) implements Node {}

    private static final Name ANONYMOUS_NAMESPACE = new Name("(anonymous namespace)");
    private static final Name STRING_LITERAL = new Name("string literal");
    private static final StdSub STD = new StdSub("std");
    private static final Builtin DECLTYPE_NULLPTR = new Builtin("decltype(nullptr)", Style.DEFAULT);

    /** Builtin types with a one-letter code, indexed by letter. */
    private static final Builtin[] BUILTINS = new Builtin[26];

    static {
        builtin('a', "signed char", Style.DEFAULT);
        builtin('b', "bool", Style.BOOL);
        builtin('c', "char", Style.DEFAULT);
        builtin('d', "double", Style.FLOAT);
        builtin('e', "long double", Style.FLOAT);
        builtin('f', "float", Style.FLOAT);
        builtin('g', "__float128", Style.FLOAT);
        builtin('h', "unsigned char", Style.DEFAULT);
        builtin('i', "int", Style.INT);
        builtin('j', "unsigned int", Style.UNSIGNED);
        builtin('l', "long", Style.LONG);
        builtin('m', "unsigned long", Style.ULONG);
        builtin('n', "__int128", Style.DEFAULT);
        builtin('o', "unsigned __int128", Style.DEFAULT);
        builtin('s', "short", Style.DEFAULT);
        builtin('t', "unsigned short", Style.DEFAULT);
        builtin('v', "void", Style.VOID);
        builtin('w', "wchar_t", Style.DEFAULT);
        builtin('x', "long long", Style.LLONG);
        builtin('y', "unsigned long long", Style.ULLONG);
        builtin('z', "...", Style.DEFAULT);
    }

    private static void builtin(char code, String text, Style style) {
        BUILTINS[code - 'a'] = new Builtin(text, style);
    }

    /** Builtin types with a {@code D} prefix (the second letter is the key). */
    private static final Map<Character, Builtin> D_BUILTINS = Map.of(
            'd', new Builtin("decimal64", Style.DEFAULT),
            'e', new Builtin("decimal128", Style.DEFAULT),
            'f', new Builtin("decimal32", Style.DEFAULT),
            'h', new Builtin("half", Style.FLOAT),
            'u', new Builtin("char8_t", Style.DEFAULT),
            's', new Builtin("char16_t", Style.DEFAULT),
            'i', new Builtin("char32_t", Style.DEFAULT),
            'n', DECLTYPE_NULLPTR);

    /** Operator codes as the ABI lists them; text is what c++filt prints in expressions. */
    private static final Map<String, Op> OPERATORS = operators(
            "aN &= 2", "aS = 2", "aa && 2", "ad & 1", "an & 2", "aw co_await# 1", "cc const_cast 2",
            "cl () 2", "cm , 2", "co ~ 1", "dV /= 2", "da delete[]# 1", "dc dynamic_cast 2",
            "de * 1", "dl delete# 1", "ds .* 2", "dt . 2", "dv / 2", "eO ^= 2", "eo ^ 2",
            "eq == 2", "ge >= 2", "gt > 2", "ix [] 2", "lS <<= 2", "le <= 2", "ls << 2",
            "lt < 2", "mI -= 2", "mL *= 2", "mi - 2", "ml * 2", "mm -- 1", "na new[] 3",
            "ne != 2", "ng - 1", "nt ! 1", "nw new 3", "oR |= 2", "oo || 2", "or | 2",
            "pL += 2", "pl + 2", "pm ->* 2", "pp ++ 1", "ps + 1", "pt -> 2", "qu ? 3",
            "rM %= 2", "rS >>= 2", "rc reinterpret_cast 2", "rm % 2", "rs >> 2",
            "sc static_cast 2", "ss <=> 2", "st sizeof# 1", "sz sizeof# 1");

    /** Operators this demangler accepts inside expressions (others are refused). */
    private static final Set<String> EXPRESSION_UNARY =
            Set.of("ad", "de", "ng", "nt", "co", "ps", "sz", "st");
    private static final Set<String> EXPRESSION_BINARY = Set.of(
            "aN", "aS", "aa", "an", "cm", "dV", "dv", "eO", "eo", "eq", "ge", "gt", "ix", "lS",
            "le", "ls", "lt", "mI", "mL", "mi", "ml", "ne", "oR", "oo", "or", "pL", "pl", "pm",
            "rM", "rS", "rm", "rs", "ss", "ds", "sc", "dc", "cc", "rc", "cl", "dt", "pt");
    private static final Set<String> NEW_CASTS = Set.of("sc", "dc", "cc", "rc");

    private static Map<String, Op> operators(String... specs) {
        Map<String, Op> map = new HashMap<>();
        for (String spec : specs) {
            String[] parts = spec.split(" ");
            // '#' stands for the trailing space c++filt keeps after word operators in expressions
            String text = parts[1].replace('#', ' ');
            map.put(parts[0], new Op(parts[0], text, Integer.parseInt(parts[2])));
        }
        return Map.copyOf(map);
    }

    /** A name together with the cv/ref qualifiers its nested-name carried for a member function. */
    private record NameResult(Node node, List<String> quals) {
        NameResult(Node node) {
            this(node, List.of());
        }
    }

    // ---------------------------------------------------------------------------------------
    // Parsing
    // ---------------------------------------------------------------------------------------

    private static final class Parser {
        private final String s;
        private int pos;
        private int depth;
        /** The substitution table: every candidate the ABI numbers for S_, S0_, S1_, ... */
        private final List<Node> subs = new ArrayList<>();
        /** The last source name outside template arguments: what a constructor is called. */
        private Node lastName;
        /** Template parameters parsed so far; used to refuse dependent conversion operators. */
        private int templateParams;
        /** Nonzero while inside an expression, where {@code cv} is a cast, not an operator name. */
        private int expressionDepth;

        Parser(String s) {
            this.s = s;
        }

        private char peek() {
            return pos < s.length() ? s.charAt(pos) : '\0';
        }

        private char peek(int ahead) {
            int i = pos + ahead;
            return i < s.length() ? s.charAt(i) : '\0';
        }

        private char next() {
            if (pos >= s.length()) {
                throw fail();
            }
            return s.charAt(pos++);
        }

        private boolean consume(char c) {
            if (peek() == c) {
                pos++;
                return true;
            }
            return false;
        }

        private void expect(char c) {
            if (!consume(c)) {
                throw fail();
            }
        }

        private void enter() {
            if (++depth > MAX_DEPTH) {
                throw fail();
            }
        }

        private void leave() {
            depth--;
        }

        private void addSub(Node n) {
            subs.add(n);
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }

        private static boolean isUpper(char c) {
            return c >= 'A' && c <= 'Z';
        }

        private static boolean isLower(char c) {
            return c >= 'a' && c <= 'z';
        }

        /** A non-negative decimal number with at least one digit (lengths, indices). */
        private int number() {
            if (!isDigit(peek())) {
                throw fail();
            }
            long n = 0;
            while (isDigit(peek())) {
                n = n * 10 + (next() - '0');
                if (n > Integer.MAX_VALUE) {
                    throw fail();
                }
            }
            return (int) n;
        }

        /** {@code _} is 0, {@code <n>_} is n + 1 (template parameter and closure numbering). */
        private int compactNumber() {
            if (consume('_')) {
                return 0;
            }
            int n = number();
            expect('_');
            if (n == Integer.MAX_VALUE) {
                throw fail();
            }
            return n + 1;
        }

        /** {@code <mangled-name> ::= _Z <encoding> [<clone suffix>]*} covering the whole input. */
        Node mangledName() {
            expect('_');
            expect('Z');
            Node root = encoding(true);
            while (peek() == '.' && (isLower(peek(1)) || isDigit(peek(1)) || peek(1) == '_')) {
                root = cloneSuffix(root);
            }
            if (pos != s.length()) {
                throw fail();
            }
            return root;
        }

        /** GCC's {@code .isra.0}, {@code .constprop.1}, {@code .cold}: one suffix per call. */
        private Node cloneSuffix(Node encoding) {
            int start = pos;
            pos += 2;
            while (isLower(peek()) || isDigit(peek()) || peek() == '_') {
                pos++;
            }
            while (peek() == '.' && isDigit(peek(1))) {
                pos += 2;
                while (isDigit(peek())) {
                    pos++;
                }
            }
            return new Clone(encoding, s.substring(start, pos));
        }

        /**
         * {@code <encoding>}: a function (name and parameter types), a data name, or a special
         * name. Functions nested in other constructs print without their return type when they
         * are local names, as c++filt does to avoid confusing it with the outer return type.
         */
        private Node encoding(boolean topLevel) {
            enter();
            try {
                char c = peek();
                if (c == 'G' || c == 'T') {
                    return specialName();
                }
                NameResult name = name();
                c = peek();
                if (c == '\0' || c == 'E') {
                    if (!name.quals().isEmpty()) {
                        throw fail(); // a qualified member function without parameters
                    }
                    return name.node();
                }
                FunctionType type = bareFunctionType(hasReturnType(name.node()));
                if (!topLevel && name.node() instanceof Local) {
                    type = new FunctionType(null, type.params(), type.quals());
                }
                return new Encoding(name.node(), name.quals(), type);
            } finally {
                leave();
            }
        }

        /** Template functions mangle their return type, except constructors and conversions. */
        private static boolean hasReturnType(Node name) {
            if (name instanceof Local local) {
                return hasReturnType(local.entity());
            }
            if (name instanceof Template t) {
                return !isCtorDtorOrConversion(t.name());
            }
            return false;
        }

        private static boolean isCtorDtorOrConversion(Node name) {
            return switch (name) {
                case Qual q -> isCtorDtorOrConversion(q.name());
                case Local l -> isCtorDtorOrConversion(l.entity());
                case Ctor c -> true;
                case Conversion c -> true;
                default -> false;
            };
        }

        private Node specialName() {
            char kind = next();
            char c = next();
            if (kind == 'T') {
                switch (c) {
                    case 'V':
                        return new Special("vtable for ", type());
                    case 'T':
                        return new Special("VTT for ", type());
                    case 'I':
                        return new Special("typeinfo for ", type());
                    case 'S':
                        return new Special("typeinfo name for ", type());
                    case 'h':
                        callOffset('h');
                        return new Special("non-virtual thunk to ", encoding(false));
                    case 'v':
                        callOffset('v');
                        return new Special("virtual thunk to ", encoding(false));
                    case 'c':
                        callOffset(next());
                        callOffset(next());
                        return new Special("covariant return thunk to ", encoding(false));
                    case 'H':
                        return new Special("TLS init function for ", plainName());
                    case 'W':
                        return new Special("TLS wrapper function for ", plainName());
                    default:
                        throw fail();
                }
            }
            if (c == 'V') {
                return new Special("guard variable for ", plainName());
            }
            throw fail();
        }

        /** {@code h <offset> _} or {@code v <offset> _ <offset> _}; the offsets are not printed. */
        private void callOffset(char kind) {
            if (kind == 'h') {
                signedNumber();
            } else if (kind == 'v') {
                signedNumber();
                expect('_');
                signedNumber();
            } else {
                throw fail();
            }
            expect('_');
        }

        private void signedNumber() {
            consume('n');
            number();
        }

        /** A name that must not carry member-function qualifiers (data, types). */
        private Node plainName() {
            NameResult r = name();
            if (!r.quals().isEmpty()) {
                throw fail();
            }
            return r.node();
        }

        /** {@code <name>}: nested, local, unscoped (possibly a template) or std:: names. */
        private NameResult name() {
            enter();
            try {
                char c = peek();
                if (c == 'N') {
                    return nestedName();
                }
                if (c == 'Z') {
                    return localName();
                }
                if (c == 'U') {
                    return new NameResult(unqualifiedName(null));
                }
                Node n;
                boolean isSubstitution = false;
                if (c == 'S') {
                    Node scope = null;
                    if (peek(1) == 't') {
                        pos += 2;
                        scope = STD;
                    }
                    if (peek() == 'S') {
                        if (scope != null) {
                            throw fail();
                        }
                        n = substitution();
                        isSubstitution = true;
                    } else {
                        n = unqualifiedName(scope);
                    }
                } else {
                    n = unqualifiedName(null);
                }
                if (peek() == 'I') {
                    // <unscoped-template-name> is itself a substitution candidate
                    if (!isSubstitution) {
                        addSub(n);
                    }
                    n = new Template(n, templateArgs());
                }
                return new NameResult(n);
            } finally {
                leave();
            }
        }

        /** {@code N [<CV-qualifiers>] [<ref-qualifier>] <prefix> <unqualified-name> E}. */
        private NameResult nestedName() {
            expect('N');
            List<String> cv = cvQualifiers();
            String ref = null;
            if (consume('R')) {
                ref = "&";
            } else if (consume('O')) {
                ref = "&&";
            }
            Node n = prefix();
            expect('E');
            List<String> quals = new ArrayList<>(cv.reversed());
            if (ref != null) {
                quals.add(ref);
            }
            // c++filt keeps at most three qualifiers beside the name; more makes it give up
            if (quals.size() > 3) {
                throw fail();
            }
            return new NameResult(n, List.copyOf(quals));
        }

        /** {@code [r] [V] [K]} in mangling order, as the words c++filt prints. */
        private List<String> cvQualifiers() {
            List<String> words = new ArrayList<>(3);
            while (true) {
                char c = peek();
                if (c == 'r') {
                    words.add("restrict");
                } else if (c == 'V') {
                    words.add("volatile");
                } else if (c == 'K') {
                    words.add("const");
                } else {
                    return words;
                }
                pos++;
            }
        }

        /**
         * The components of a nested name up to (not including) its {@code E}. Every prefix
         * that is followed by more components is a substitution candidate. As in c++filt, a
         * substitution or template parameter may only come first, and a substitution or the
         * {@code M} of a lambda's initializer scope cannot end the name.
         */
        private Node prefix() {
            Node ret = null;
            while (true) {
                char c = peek();
                if (c == 'S') {
                    if (ret != null) {
                        throw fail();
                    }
                    ret = substitution();
                    continue; // already in the table
                }
                if (c == 'M') {
                    pos++; // the initializer scope of a lambda in a data member: not printed
                    continue;
                }
                if (c == 'I') {
                    if (ret == null) {
                        throw fail();
                    }
                    ret = new Template(ret, templateArgs());
                } else if (c == 'T') {
                    if (ret != null) {
                        throw fail();
                    }
                    ret = templateParam();
                } else if (c == 'D' && (peek(1) == 'T' || peek(1) == 't')) {
                    throw fail(); // decltype as a scope
                } else {
                    ret = unqualifiedName(ret);
                }
                if (peek() == 'E') {
                    return ret;
                }
                addSub(ret);
            }
        }

        /**
         * {@code <unqualified-name>}, optionally ABI-tagged, qualified by {@code scope} when it
         * is not null.
         */
        private Node unqualifiedName(Node scope) {
            enter();
            try {
                char c = peek();
                Node n;
                if (isDigit(c)) {
                    n = sourceName();
                } else if (isLower(c)) {
                    n = operatorName();
                } else if (c == 'C' || (c == 'D' && peek(1) != 'C')) {
                    n = ctorDtorName();
                } else if (c == 'L') {
                    pos++; // internal linkage
                    n = sourceName();
                    discriminator();
                } else if (c == 'U' && peek(1) == 'l') {
                    n = lambda();
                } else if (c == 'U' && peek(1) == 't') {
                    pos += 2;
                    n = new Unnamed(compactNumber());
                    addSub(n); // c++filt numbers an unnamed type on its own as well
                } else {
                    throw fail();
                }
                if (peek() == 'B') {
                    n = abiTags(n);
                }
                return scope == null ? n : new Qual(scope, n);
            } finally {
                leave();
            }
        }

        private Node sourceName() {
            int length = number();
            if (length == 0 || length > s.length() - pos) {
                throw fail();
            }
            String id = s.substring(pos, pos + length);
            pos += length;
            Node n = isAnonymousNamespace(id) ? ANONYMOUS_NAMESPACE : new Name(id);
            lastName = n;
            return n;
        }

        /** GCC spells the anonymous namespace {@code _GLOBAL__N_1} (or with . or $). */
        private static boolean isAnonymousNamespace(String id) {
            return id.length() >= 10 && id.startsWith("_GLOBAL_")
                    && (id.charAt(8) == '.' || id.charAt(8) == '_' || id.charAt(8) == '$')
                    && id.charAt(9) == 'N';
        }

        /** {@code _ <digit>}, {@code _ <number>} or {@code __ <number> _}: parsed, not printed. */
        private void discriminator() {
            if (!consume('_')) {
                return;
            }
            boolean two = consume('_');
            int n = isDigit(peek()) ? number() : 0; // c++filt accepts a missing number
            if (two && n >= 10) {
                expect('_');
            }
        }

        private Node abiTags(Node n) {
            Node hold = lastName; // a tag is not a name a constructor could take
            while (consume('B')) {
                Node tag = sourceName();
                n = new Tagged(n, ((Name) tag).text());
            }
            lastName = hold;
            return n;
        }

        private Node ctorDtorName() {
            if (lastName == null) {
                throw fail();
            }
            if (consume('C')) {
                boolean inheriting = consume('I');
                char k = next();
                if (k < '1' || k > '5') {
                    throw fail();
                }
                if (inheriting) {
                    type(); // the base class; parsed for the substitution table, not printed
                }
                return new Ctor(lastName, false);
            }
            expect('D');
            char k = next();
            if (k != '0' && k != '1' && k != '2' && k != '4' && k != '5') {
                throw fail();
            }
            return new Ctor(lastName, true);
        }

        private Node operatorName() {
            char c1 = next();
            char c2 = next();
            if (c1 == 'c' && c2 == 'v') {
                if (expressionDepth > 0) {
                    throw fail(); // a cast spelled as an operator name: not supported
                }
                int before = templateParams;
                Node type = type();
                if (templateParams != before) {
                    // c++filt resolves these against a template that may come later; refuse
                    throw fail();
                }
                return new Conversion(type);
            }
            if (c1 == 'l' && c2 == 'i') {
                return new LiteralOperator(sourceName());
            }
            Op op = OPERATORS.get(String.valueOf(c1) + c2);
            if (op == null) {
                throw fail();
            }
            return new Operator(op);
        }

        /** {@code Ul <parameter types> E [<number>] _}. */
        private Node lambda() {
            pos += 2;
            List<Node> params = parameterList();
            expect('E');
            return new Lambda(params, compactNumber());
        }

        /**
         * {@code Z <function encoding> E <entity name> [<discriminator>]} (or {@code s} for a
         * string literal). Qualifiers on the entity belong to the whole encoding and are
         * handed up.
         */
        private NameResult localName() {
            expect('Z');
            Node function = encoding(false);
            expect('E');
            if (function instanceof Encoding e && e.type().ret() != null) {
                function = new Encoding(e.name(), e.quals(),
                        new FunctionType(null, e.type().params(), e.type().quals()));
            }
            if (consume('s')) {
                discriminator();
                return new NameResult(new Local(function, STRING_LITERAL));
            }
            int defaultArg = -1;
            if (consume('d')) {
                defaultArg = compactNumber();
            }
            NameResult entity = name();
            Node node = entity.node();
            if (!(node instanceof Lambda) && !(node instanceof Unnamed)) {
                discriminator();
            }
            if (defaultArg >= 0) {
                node = new DefaultArg(defaultArg, node);
            }
            return new NameResult(new Local(function, node), entity.quals());
        }

        /** {@code I <template-arg>+ E} (or {@code J ... E} for a pack); may be empty. */
        private Args templateArgs() {
            enter();
            try {
                pos++; // 'I' or 'J'
                if (consume('E')) {
                    return new Args(List.of());
                }
                Node hold = lastName; // names inside the arguments do not name constructors
                List<Node> items = new ArrayList<>();
                do {
                    items.add(templateArg());
                } while (!consume('E'));
                lastName = hold;
                return new Args(List.copyOf(items));
            } finally {
                leave();
            }
        }

        private Node templateArg() {
            char c = peek();
            if (c == 'X') {
                pos++;
                Node e = expression();
                expect('E');
                return e;
            }
            if (c == 'L') {
                return exprPrimary();
            }
            if (c == 'I' || c == 'J') {
                return templateArgs();
            }
            return type();
        }

        /** {@code L <type> [n] <value> E}, or {@code L _Z <encoding> E} for an entity. */
        private Node exprPrimary() {
            expect('L');
            Node ret;
            if (peek() == '_' || peek() == 'Z') {
                consume('_');
                expect('Z');
                ret = encoding(false);
            } else {
                Node type = type();
                if (type == DECLTYPE_NULLPTR && consume('E')) {
                    return type; // a bare nullptr
                }
                boolean negative = consume('n');
                int start = pos;
                while (peek() != 'E') {
                    next();
                }
                if (pos == start) {
                    throw fail(); // c++filt rejects an empty value
                }
                ret = new Literal(type, s.substring(start, pos), negative);
            }
            expect('E');
            return ret;
        }

        /** {@code T_}, {@code T<n>_}: printed later as the argument it stands for. */
        private Node templateParam() {
            expect('T');
            templateParams++;
            return new TemplateParam(compactNumber());
        }

        /**
         * {@code S_}, {@code S<seq-id>_} (base 36) back-references and the {@code St Sa Sb Ss
         * Si So Sd} abbreviations. The abbreviations that name a class also set the name a
         * following constructor takes.
         */
        private Node substitution() {
            expect('S');
            char c = next();
            if (c == '_' || isDigit(c) || isUpper(c)) {
                int id = 0;
                if (c != '_') {
                    while (c != '_') {
                        int digit;
                        if (isDigit(c)) {
                            digit = c - '0';
                        } else if (isUpper(c)) {
                            digit = c - 'A' + 10;
                        } else {
                            throw fail();
                        }
                        id = id * 36 + digit;
                        if (id >= subs.size()) {
                            throw fail();
                        }
                        c = next();
                    }
                    id++;
                }
                if (id >= subs.size()) {
                    throw fail();
                }
                return subs.get(id);
            }
            if (peek() == 'B') {
                throw fail(); // an ABI-tagged abbreviation: c++filt treats these inconsistently
            }
            return switch (c) {
                case 't' -> STD;
                case 'a' -> standard("std::allocator", "allocator");
                case 'b' -> standard("std::basic_string", "basic_string");
                case 's' -> standard(
                        "std::basic_string<char, std::char_traits<char>, std::allocator<char> >",
                        "basic_string");
                case 'i' -> standard("std::basic_istream<char, std::char_traits<char> >",
                        "basic_istream");
                case 'o' -> standard("std::basic_ostream<char, std::char_traits<char> >",
                        "basic_ostream");
                case 'd' -> standard("std::basic_iostream<char, std::char_traits<char> >",
                        "basic_iostream");
                default -> throw fail();
            };
        }

        private Node standard(String text, String last) {
            lastName = new Name(last);
            return new StdSub(text);
        }

        /** {@code <type>}: adds every candidate the ABI numbers, in the ABI's order. */
        private Node type() {
            enter();
            try {
                return type1();
            } finally {
                leave();
            }
        }

        private Node type1() {
            char c = peek();
            if (c == 'r' || c == 'V' || c == 'K' || (c == 'D' && peek(1) == 'o')) {
                return qualifiedType();
            }
            if (isLower(c) && BUILTINS[c - 'a'] != null) {
                pos++;
                return BUILTINS[c - 'a'];
            }
            Node ret;
            switch (c) {
                case 'u' -> {
                    pos++;
                    // a vendor extended type prints as its name but is not a plain name
                    ret = new Builtin(((Name) sourceName()).text(), Style.DEFAULT);
                }
                case 'F' -> ret = functionType(List.of());
                case 'N', 'Z', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' -> ret = plainName();
                case 'A' -> ret = arrayType();
                case 'M' -> {
                    pos++;
                    Node cls = type();
                    Node member = type();
                    ret = new PtrMem(cls, member);
                }
                case 'T' -> {
                    ret = templateParam();
                    if (peek() == 'I') {
                        addSub(ret); // a template template parameter with its arguments
                        ret = new Template(ret, templateArgs());
                    }
                }
                case 'S' -> {
                    char n = peek(1);
                    if (isDigit(n) || n == '_' || isUpper(n)) {
                        ret = substitution();
                        if (peek() != 'I') {
                            return ret; // already in the table
                        }
                        ret = new Template(ret, templateArgs());
                    } else {
                        ret = plainName();
                        if (ret instanceof StdSub) {
                            return ret; // a bare abbreviation is not a new candidate
                        }
                    }
                }
                case 'P' -> ret = modified(Kind.POINTER);
                case 'R' -> ret = modified(Kind.LREF);
                case 'O' -> ret = modified(Kind.RREF);
                case 'C' -> ret = modified(Kind.COMPLEX);
                case 'G' -> ret = modified(Kind.IMAGINARY);
                case 'D' -> {
                    ret = dType();
                    if (ret instanceof Builtin || ret instanceof Name) {
                        return ret; // builtins are never candidates
                    }
                }
                default -> throw fail();
            }
            addSub(ret);
            return ret;
        }

        private Node modified(Kind kind) {
            pos++;
            return new Modified(kind, type());
        }

        /**
         * CV-qualified types. Qualifiers before a function type apply to its implicit object
         * parameter (printed after the parameters) and only the qualified type is a candidate.
         */
        private Node qualifiedType() {
            List<String> words = cvQualifiers();
            boolean noexcept = false;
            if (peek() == 'D' && peek(1) == 'o') {
                pos += 2;
                noexcept = true;
            }
            if (peek() == 'F') {
                List<String> quals = new ArrayList<>();
                if (noexcept) {
                    quals.add("noexcept");
                }
                quals.addAll(words.reversed());
                Node fn = functionType(quals);
                addSub(fn);
                return fn;
            }
            if (noexcept || words.isEmpty()) {
                throw fail();
            }
            Node inner = type();
            if (inner instanceof FunctionType f && !f.quals().isEmpty()
                    && f.quals().getLast().startsWith("&")) {
                // c++filt rewrites the shared substitution in place here, changing earlier
                // occurrences too; refuse rather than imitate
                throw fail();
            }
            for (int i = words.size() - 1; i >= 0; i--) {
                inner = new CvQual(inner, words.get(i));
            }
            addSub(inner);
            return inner;
        }

        /** The two-letter {@code D} types: decltype, pack expansions, vectors and builtins. */
        private Node dType() {
            char c = peek(1);
            Builtin builtin = D_BUILTINS.get(c);
            if (builtin != null) {
                pos += 2;
                return builtin;
            }
            switch (c) {
                case 'a':
                    pos += 2;
                    return new Name("auto");
                case 'c':
                    pos += 2;
                    return new Name("decltype(auto)");
                case 'F': {
                    pos += 2;
                    // c++filt prints their literals like those of a class type: (_Float16)3c00
                    int bits = number();
                    if (consume('x')) {
                        return new Builtin("_Float" + bits + "x", Style.DEFAULT);
                    }
                    expect('_');
                    return new Builtin("_Float" + bits, Style.DEFAULT);
                }
                case 'T':
                case 't': {
                    pos += 2;
                    Node e = expression();
                    expect('E');
                    return new Decltype(e);
                }
                case 'p':
                    pos += 2;
                    return new PackExpansion(type());
                case 'v': {
                    pos += 2;
                    Node dim;
                    if (consume('_')) {
                        dim = expression();
                    } else {
                        // c++filt reads the size as a number, so "04" prints as 4
                        boolean negative = consume('n');
                        int size = number();
                        dim = new Name((negative && size != 0 ? "-" : "") + size);
                    }
                    expect('_');
                    return new VectorType(dim, type());
                }
                default:
                    throw fail();
            }
        }

        private Node digits() {
            int start = pos;
            while (isDigit(peek())) {
                pos++;
            }
            if (pos == start) {
                throw fail();
            }
            return new Name(s.substring(start, pos));
        }

        /** {@code F [Y] <return type> <parameter types> [R|O] E}. */
        private FunctionType functionType(List<String> quals) {
            expect('F');
            consume('Y'); // extern "C": not printed
            FunctionType bare = bareFunctionType(true);
            List<String> all = new ArrayList<>(quals);
            if (consume('R')) {
                all.add("&");
            } else if (consume('O')) {
                all.add("&&");
            }
            expect('E');
            return new FunctionType(bare.ret(), bare.params(), List.copyOf(all));
        }

        private FunctionType bareFunctionType(boolean hasReturn) {
            Node ret = hasReturn ? type() : null;
            return new FunctionType(ret, parameterList(), List.of());
        }

        /** Parameter types up to {@code E} or the end; a lone {@code void} means none. */
        private List<Node> parameterList() {
            List<Node> params = new ArrayList<>();
            while (true) {
                char c = peek();
                if (c == '\0' || c == 'E' || c == '.') {
                    break;
                }
                if ((c == 'R' || c == 'O') && peek(1) == 'E') {
                    break; // a ref-qualifier of the function, not a parameter
                }
                params.add(type());
            }
            if (params.isEmpty()) {
                throw fail();
            }
            if (params.size() == 1 && params.get(0) == BUILTINS['v' - 'a']) {
                return List.of();
            }
            return List.copyOf(params);
        }

        /** An unqualified name, possibly with template arguments, inside an expression. */
        private Node unresolvedName() {
            Node name = unqualifiedName(null);
            if (peek() == 'I') {
                name = new Template(name, templateArgs());
            }
            return name;
        }

        /** {@code <expression>* E}: the arguments of a call. */
        private Node exprList() {
            List<Node> items = new ArrayList<>();
            while (!consume('E')) {
                items.add(expression());
            }
            return new ExprList(List.copyOf(items));
        }

        /** {@code A [<dimension>] _ <element type>}. */
        private Node arrayType() {
            expect('A');
            Node dim = null;
            if (peek() != '_') {
                dim = isDigit(peek()) ? digits() : expression();
            }
            expect('_');
            return new ArrayType(dim, type());
        }

        /** The subset of {@code <expression>} c++filt output is certain for. */
        private Node expression() {
            enter();
            expressionDepth++;
            try {
                return expression1();
            } finally {
                expressionDepth--;
                leave();
            }
        }

        private Node expression1() {
            char c = peek();
            if (c == 'L') {
                return exprPrimary();
            }
            if (c == 'T') {
                return templateParam(); // not a substitution candidate inside an expression
            }
            if (c == 'f' && peek(1) == 'p') {
                pos += 2;
                if (consume('T')) {
                    return new FunctionParam(0);
                }
                int index = compactNumber();
                if (index == Integer.MAX_VALUE) {
                    throw fail();
                }
                return new FunctionParam(index + 1);
            }
            if (c == 's' && peek(1) == 'r') {
                // sr <type> <unqualified-name> [<template-args>]: a dependent member name
                pos += 2;
                char t = peek();
                boolean decltype = t == 'D' && (peek(1) == 't' || peek(1) == 'T');
                if (!(t == 'T' || t == 'N' || t == 'S' || isDigit(t) || decltype)) {
                    throw fail(); // c++filt reads other scopes (builtins) differently
                }
                Node scope = type();
                if (!isDigit(peek())) {
                    throw fail(); // only a plain member name has a verified output
                }
                Node member = new Qual(scope, unqualifiedName(null));
                return peek() == 'I' ? new Template(member, templateArgs()) : member;
            }
            if (c == 's' && peek(1) == 'p') {
                pos += 2;
                return new PackExpansion(expression()); // pattern... inside an expression
            }
            if (isDigit(c) || (c == 'o' && peek(1) == 'n')) {
                // a dependent name, as in decltype(f(t)); "on" introduces an operator name
                if (c == 'o') {
                    pos += 2;
                }
                return unresolvedName();
            }
            if (c == 'c' && peek(1) == 'v') {
                pos += 2;
                Node type = type();
                if (peek() == '_') {
                    throw fail(); // a cast with a list of operands
                }
                return new Cast(type, expression());
            }
            String code = String.valueOf(c) + peek(1);
            Op op = OPERATORS.get(code);
            if (op == null) {
                throw fail();
            }
            pos += 2;
            if (code.equals("st")) {
                return new Unary(op, type());
            }
            if (op.arity() == 1 && EXPRESSION_UNARY.contains(code)) {
                return new Unary(op, expression());
            }
            if (op.arity() == 2 && EXPRESSION_BINARY.contains(code)) {
                Node left = NEW_CASTS.contains(code) ? type() : expression();
                Node right;
                if (code.equals("cl")) {
                    right = exprList();
                } else if (code.equals("dt") || code.equals("pt")) {
                    right = unresolvedName();
                } else {
                    right = expression();
                }
                return new Binary(op, left, right);
            }
            if (code.equals("qu")) {
                Node first = expression();
                Node second = expression();
                return new Trinary(op, first, second, expression());
            }
            throw fail();
        }
    }

    // ---------------------------------------------------------------------------------------
    // Printing
    // ---------------------------------------------------------------------------------------

    /**
     * A pending part of a declarator. C++ declarators are inside out ({@code void (*)(int)}:
     * the pointer sits inside the function type), so a pointer, reference, qualifier or
     * function name is pushed while the type it modifies is printed; a function or array type
     * prints the pending modifiers in its middle and marks them printed, and any modifier
     * still unprinted afterwards is appended by whoever pushed it.
     */
    private static final class Mod {
        final Node node;
        final Mod next;
        /** The template argument scope in force when the modifier was pushed. */
        final Frame templates;
        boolean printed;

        Mod(Node node, Mod next, Frame templates) {
            this.node = node;
            this.next = next;
            this.templates = templates;
        }
    }

    /** The template arguments that {@code T_} refers to, innermost first. */
    private record Frame(Args args, Frame next) {}

    /**
     * Walks the tree and writes c++filt's text. The pending modifiers are printer state, not a
     * parameter: c++filt lets them reach everything printed beneath a modifier except through
     * the places that reset them (template arguments, function parameters, a function's own
     * name), and a few odd outputs depend on exactly that.
     */
    private static final class Printer {
        private final StringBuilder out = new StringBuilder();
        private int depth;
        private int steps;
        private Frame templates;
        private Mod modifiers;
        private char lastChar;
        /** Nonzero while printing a closure's parameters, where {@code T_} means {@code auto}. */
        private int lambdaParams;
        /** The pack element being printed by the innermost pack expansion (c++filt keeps it). */
        private int packIndex;
        /** The nodes being printed, outermost first. */
        private final List<Node> stack = new ArrayList<>();
        /** How many times each node is on {@link #stack}; c++filt refuses a third nesting. */
        private final Map<Node, Integer> printing = new IdentityHashMap<>();
        /**
         * For each {@code T_} under a reference, the template scope it was first printed in.
         * c++filt resolves a later occurrence (reached through a substitution) in that same
         * scope unless it is nested inside the first one.
         */
        private final Map<Node, Frame> savedScopes = new IdentityHashMap<>();

        String print(Node root) {
            comp(root);
            return out.toString();
        }

        private void append(String text) {
            if (text.isEmpty()) {
                return;
            }
            out.append(text);
            lastChar = text.charAt(text.length() - 1);
            if (out.length() > MAX_OUTPUT) {
                throw fail();
            }
        }

        private void append(char c) {
            out.append(c);
            lastChar = c;
            if (out.length() > MAX_OUTPUT) {
                throw fail();
            }
        }

        /**
         * The last character appended. Like c++filt, this is not rewound when a separator is
         * taken back ({@link #list}), which decides between {@code >>} and {@code > >}.
         */
        private char last() {
            return lastChar;
        }

        private Mod push(Node node) {
            modifiers = new Mod(node, modifiers, templates);
            return modifiers;
        }

        private void comp(Node n) {
            if (++depth > MAX_DEPTH || ++steps > MAX_PRINT_STEPS) {
                throw fail();
            }
            int nesting = printing.getOrDefault(n, 0);
            if (nesting > 1) {
                throw fail(); // a node printed inside itself twice: c++filt gives up on loops
            }
            printing.put(n, nesting + 1);
            stack.add(n);
            try {
                comp1(n);
            } finally {
                stack.removeLast();
                printing.put(n, nesting);
                depth--;
            }
        }

        /** Prints {@code n} with no pending modifiers, then restores them. */
        private void compBare(Node n) {
            Mod hold = modifiers;
            modifiers = null;
            try {
                comp(n);
            } finally {
                modifiers = hold;
            }
        }

        /** Whether {@code n} is being printed, ignoring the innermost {@code skipTop} entries. */
        private boolean onStack(Node n, int skipTop) {
            for (int i = stack.size() - 1 - skipTop; i >= 0; i--) {
                if (stack.get(i) == n) {
                    return true;
                }
            }
            return false;
        }

        private void comp1(Node n) {
            switch (n) {
                case Name name -> append(name.text());
                case Builtin b -> append(b.text());
                case StdSub std -> append(std.text());
                case Qual q -> {
                    comp(q.scope());
                    append("::");
                    comp(q.name());
                }
                case Local l -> {
                    comp(l.function());
                    append("::");
                    comp(l.entity());
                }
                case DefaultArg d -> {
                    append("{default arg#");
                    append(Integer.toString(d.index() + 1));
                    append("}::");
                    comp(d.entity());
                }
                case Template t -> template(t);
                case Args a -> list(a.items());
                case Tagged t -> {
                    comp(t.name());
                    append("[abi:");
                    append(t.tag());
                    append(']');
                }
                case Ctor c -> {
                    if (c.destructor()) {
                        append('~');
                    }
                    comp(c.name());
                }
                case Operator o -> operatorName(o.op());
                case LiteralOperator l -> {
                    append("operator\"\" ");
                    comp(l.suffix());
                }
                case Conversion c -> {
                    append("operator ");
                    comp(c.type());
                }
                case Lambda l -> {
                    append("{lambda(");
                    lambdaParams++;
                    list(l.params());
                    lambdaParams--;
                    append(")#");
                    append(Integer.toString(l.index() + 1));
                    append('}');
                }
                case Unnamed u -> {
                    append("{unnamed type#");
                    append(Integer.toString(u.index() + 1));
                    append('}');
                }
                case TemplateParam p -> templateParam(p);
                case FunctionParam p -> {
                    if (p.index() == 0) {
                        append("this");
                    } else {
                        append("{parm#");
                        append(Integer.toString(p.index()));
                        append('}');
                    }
                }
                case PackExpansion p -> packExpansion(p);
                case CvQual q -> cvQual(q);
                case Modified m -> modified(m);
                case PtrMem p -> modifier(p, p.member());
                case VectorType v -> modifier(v, v.elem());
                case ArrayType a -> array(a);
                case FunctionType f -> function(f);
                case Encoding e -> encoding(e);
                case Special sp -> {
                    append(sp.prefix());
                    comp(sp.inner());
                }
                case Clone c -> {
                    comp(c.encoding());
                    append(" [clone ");
                    append(c.suffix());
                    append(']');
                }
                case Literal l -> literal(l);
                case Unary u -> unary(u);
                case Binary b -> binary(b);
                case Trinary t -> {
                    subexpr(t.first());
                    append(t.op().text());
                    subexpr(t.second());
                    append(" : ");
                    subexpr(t.third());
                }
                case Cast c -> {
                    append('(');
                    comp(c.type());
                    append(')');
                    subexpr(c.operand());
                }
                case Decltype d -> {
                    append("decltype (");
                    comp(d.expression());
                    append(')');
                }
                case ExprList l -> list(l.items());
                case FnQuals q -> modText(q);
                case NameMod m -> comp(m.name());
            }
        }

        /**
         * {@code name<args>}, keeping {@code < <} and {@code > >} apart as c++filt does.
         * Pending modifiers belong to the whole type, not to anything inside it.
         */
        private void template(Template t) {
            Mod hold = modifiers;
            modifiers = null;
            try {
                comp(t.name());
                if (last() == '<') {
                    append(' ');
                }
                append('<');
                list(t.args().items());
                if (last() == '>') {
                    append(' ');
                }
                append('>');
            } finally {
                modifiers = hold;
            }
        }

        /**
         * Comma-separated items. An item that prints nothing (an empty pack) drops the
         * separator before it only when everything after it is empty too, as c++filt does.
         */
        private void list(List<Node> items) {
            int n = items.size();
            if (n == 0) {
                return;
            }
            comp(items.get(0));
            if (n == 1) {
                return;
            }
            int[] marks = new int[n];
            for (int i = 1; i < n; i++) {
                append(", ");
                marks[i] = out.length();
                comp(items.get(i));
            }
            for (int i = n - 1; i >= 1 && out.length() == marks[i]; i--) {
                out.setLength(marks[i] - 2);
            }
        }

        private void operatorName(Op op) {
            String text = op.text();
            append("operator");
            if (Character.isLowerCase(text.charAt(0))) {
                append(' '); // operator new, operator delete[], operator co_await
            }
            append(text.strip());
        }

        private Node lookup(TemplateParam p) {
            if (templates == null) {
                throw fail(); // c++filt gives up on a T_ outside any template
            }
            List<Node> items = templates.args().items();
            return p.index() < items.size() ? items.get(p.index()) : null;
        }

        /** The argument itself, or the current element when the argument is a pack. */
        private Node argument(TemplateParam p) {
            Node a = lookup(p);
            if (a instanceof Args pack) {
                a = packIndex < pack.items().size() ? pack.items().get(packIndex) : null;
            }
            if (a == null) {
                throw fail();
            }
            return a;
        }

        private void templateParam(TemplateParam p) {
            if (lambdaParams > 0) {
                append("auto:");
                append(Integer.toString(p.index() + 1));
                return;
            }
            Node a = argument(p);
            // the argument may itself mention an outer template's parameters
            Frame hold = templates;
            templates = hold.next();
            try {
                comp(a);
            } finally {
                templates = hold;
            }
        }

        private void packExpansion(PackExpansion p) {
            Args pack = findPack(p.pattern());
            if (pack == null) {
                subexpr(p.pattern());
                append("...");
                return;
            }
            int n = pack.items().size();
            for (int i = 0; i < n; i++) {
                packIndex = i;
                comp(p.pattern());
                if (i < n - 1) {
                    append(", ");
                }
            }
        }

        /** The first template parameter in the pattern (depth first) whose argument is a pack. */
        private Args findPack(Node n) {
            if (n == null) {
                return null;
            }
            if (++steps > MAX_PRINT_STEPS || ++depth > MAX_DEPTH) {
                throw fail();
            }
            try {
                return switch (n) {
                    // c++filt never expands a pack inside a closure's parameters
                    case TemplateParam p ->
                            lambdaParams == 0 && lookup(p) instanceof Args pack ? pack : null;
                    case PackExpansion p -> null;
                    case Name x -> null;
                    case Builtin x -> null;
                    case StdSub x -> null;
                    case Lambda x -> null;
                    case Unnamed x -> null;
                    case Tagged x -> null;
                    case Operator x -> null;
                    case FunctionParam x -> null;
                    case DefaultArg x -> null;
                    case Ctor c -> findPack(c.name());
                    case Qual q -> first(q.scope(), q.name());
                    case Local l -> first(l.function(), l.entity());
                    case Template t -> first(t.name(), t.args());
                    case Args a -> firstOf(a.items());
                    case LiteralOperator l -> findPack(l.suffix());
                    case Conversion c -> findPack(c.type());
                    case CvQual q -> findPack(q.inner());
                    case Modified m -> findPack(m.inner());
                    case PtrMem p -> first(p.cls(), p.member());
                    case ArrayType a -> first(a.dim(), a.elem());
                    case VectorType v -> first(v.dim(), v.elem());
                    case FunctionType f -> {
                        Args a = findPack(f.ret());
                        yield a != null ? a : firstOf(f.params());
                    }
                    case Encoding e -> first(e.name(), e.type());
                    case Special sp -> findPack(sp.inner());
                    case Clone c -> findPack(c.encoding());
                    case Literal l -> findPack(l.type());
                    case Unary u -> findPack(u.operand());
                    case Binary b -> first(b.left(), b.right());
                    case Trinary t -> {
                        Args a = first(t.first(), t.second());
                        yield a != null ? a : findPack(t.third());
                    }
                    case Cast c -> first(c.type(), c.operand());
                    case Decltype d -> findPack(d.expression());
                    case ExprList l -> firstOf(l.items());
                    case FnQuals q -> null;
                    case NameMod m -> findPack(m.name());
                };
            } finally {
                depth--;
            }
        }

        private Args first(Node a, Node b) {
            Args found = findPack(a);
            return found != null ? found : findPack(b);
        }

        private Args firstOf(List<Node> nodes) {
            for (Node n : nodes) {
                Args found = findPack(n);
                if (found != null) {
                    return found;
                }
            }
            return null;
        }

        /**
         * A qualifier already waiting directly above (an array's qualifiers are copied down to
         * its element; {@code KK} spells one twice) is printed once only.
         */
        private void cvQual(CvQual q) {
            for (Mod p = modifiers; p != null; p = p.next) {
                if (!p.printed) {
                    if (!(p.node instanceof CvQual waiting)) {
                        break;
                    }
                    if (waiting.word().equals(q.word())) {
                        comp(q.inner());
                        return;
                    }
                }
            }
            modifier(q, q.inner());
        }

        /** Pointers and references, with C++'s reference collapsing ({@code T&& &} is {@code T&}). */
        private void modified(Modified m) {
            if (m.kind() != Kind.LREF && m.kind() != Kind.RREF) {
                modifier(m, m.inner());
                return;
            }
            Node sub = m.inner();
            Frame hold = templates;
            try {
                if (lambdaParams == 0 && sub instanceof TemplateParam p) {
                    if (!savedScopes.containsKey(p)) {
                        savedScopes.put(p, templates);
                    } else if (!onStack(p, 0) && !onStack(m, 1)) {
                        templates = savedScopes.get(p);
                    }
                    sub = argument(p);
                }
                if (sub instanceof Modified inner
                        && (inner.kind() == Kind.LREF || inner.kind() == m.kind())) {
                    modifier(inner, inner.inner());
                } else if (sub instanceof Modified inner && inner.kind() == Kind.RREF) {
                    modifier(m, inner.inner());
                } else {
                    modifier(m, m.inner());
                }
            } finally {
                templates = hold;
            }
        }

        private void modifier(Node mod, Node inner) {
            Mod m = push(mod);
            try {
                comp(inner);
                if (!m.printed) {
                    modText(mod);
                }
            } finally {
                modifiers = m.next;
            }
        }

        /** What a modifier adds after its type when nothing consumed it. */
        private void modText(Node mod) {
            switch (mod) {
                case CvQual q -> {
                    append(' ');
                    append(q.word());
                }
                case Modified m -> append(switch (m.kind()) {
                    case POINTER -> "*";
                    case LREF -> "&";
                    case RREF -> "&&";
                    case COMPLEX -> " _Complex";
                    case IMAGINARY -> " _Imaginary";
                });
                case PtrMem p -> {
                    if (last() != '(') {
                        append(' ');
                    }
                    comp(p.cls());
                    append("::*");
                }
                case VectorType v -> {
                    append(" __vector(");
                    comp(v.dim());
                    append(')');
                }
                case FnQuals q -> {
                    for (String word : q.words()) {
                        append(' ');
                        append(word);
                    }
                }
                case NameMod m -> {
                    if (m.name() instanceof Local) {
                        compBare(m.name()); // c++filt hides modifiers from a local name
                    } else {
                        comp(m.name());
                    }
                }
                default -> comp(mod);
            }
        }

        /**
         * Prints the pending modifiers in order. In prefix position the qualifiers of a
         * function are skipped (they follow its parameter list); a function or array modifier
         * prints the rest of the list itself.
         */
        private void modList(Mod mods, boolean suffix) {
            for (Mod p = mods; p != null; p = p.next) {
                if (p.printed || (!suffix && p.node instanceof FnQuals)) {
                    continue;
                }
                p.printed = true;
                Frame hold = templates;
                templates = p.templates;
                try {
                    if (p.node instanceof FunctionType f) {
                        functionSuffix(f, p.next);
                        return;
                    }
                    if (p.node instanceof ArrayType a) {
                        arraySuffix(a, p.next);
                        return;
                    }
                    modText(p.node);
                } finally {
                    templates = hold;
                }
            }
        }

        /**
         * A function type: the return type (with this function pending as a modifier, so a
         * returned function pointer wraps around it), then the declarator and parameters.
         * Qualifiers of the function type wait as a modifier of their own.
         */
        private void function(FunctionType f) {
            if (f.quals().isEmpty()) {
                functionBody(f);
                return;
            }
            Mod quals = push(new FnQuals(f.quals()));
            try {
                functionBody(f);
                if (!quals.printed) {
                    modText(quals.node);
                }
            } finally {
                modifiers = quals.next;
            }
        }

        private void functionBody(FunctionType f) {
            if (f.ret() != null) {
                Mod self = push(f);
                try {
                    comp(f.ret());
                } finally {
                    modifiers = self.next;
                }
                if (self.printed) {
                    return;
                }
                append(' ');
            }
            functionSuffix(f, modifiers);
        }

        /** {@code (declarator)(params) qualifiers}, parenthesizing pointers to the function. */
        private void functionSuffix(FunctionType f, Mod mods) {
            boolean needParen = false;
            boolean needSpace = false;
            for (Mod p = mods; p != null && !p.printed; p = p.next) {
                if (p.node instanceof Modified m && m.kind() != Kind.COMPLEX
                        && m.kind() != Kind.IMAGINARY) {
                    needParen = true;
                    break;
                }
                if (p.node instanceof CvQual || p.node instanceof PtrMem
                        || p.node instanceof Modified) {
                    needParen = true;
                    needSpace = true;
                    break;
                }
            }
            if (needParen) {
                if (!needSpace && last() != '(' && last() != '*') {
                    needSpace = true;
                }
                if (needSpace && last() != ' ') {
                    append(' ');
                }
                append('(');
            }
            Mod hold = modifiers;
            modifiers = null;
            try {
                modList(mods, false);
                if (needParen) {
                    append(')');
                }
                append('(');
                list(f.params());
                append(')');
                modList(mods, true);
            } finally {
                modifiers = hold;
            }
        }

        /**
         * An array: qualifiers on the array apply to its element, so pending qualifiers are
         * copied below it, then the element, then the declarator and dimension.
         */
        private void array(ArrayType a) {
            Mod hold = modifiers;
            Mod self = push(a);
            List<Mod> copies = new ArrayList<>(3);
            try {
                for (Mod p = hold; p != null && p.node instanceof CvQual; p = p.next) {
                    if (!p.printed) {
                        if (copies.size() == 3) {
                            throw fail();
                        }
                        Mod copy = new Mod(p.node, modifiers, p.templates);
                        modifiers = copy;
                        copies.add(copy);
                        p.printed = true;
                    }
                }
                comp(a.elem());
            } finally {
                modifiers = hold;
            }
            if (self.printed) {
                return;
            }
            for (int i = copies.size() - 1; i >= 0; i--) {
                modText(copies.get(i).node);
            }
            arraySuffix(a, modifiers);
        }

        private void arraySuffix(ArrayType a, Mod mods) {
            boolean needSpace = true;
            if (mods != null) {
                boolean needParen = false;
                for (Mod p = mods; p != null; p = p.next) {
                    if (!p.printed) {
                        if (p.node instanceof ArrayType) {
                            needSpace = false;
                        } else {
                            needParen = true;
                        }
                        break;
                    }
                }
                if (needParen) {
                    append(" (");
                }
                modList(mods, false);
                if (needParen) {
                    append(')');
                }
            }
            if (needSpace) {
                append(' ');
            }
            append('[');
            if (a.dim() != null) {
                comp(a.dim());
            }
            append(']');
        }

        /**
         * A function: its name and qualifiers become pending modifiers of its type, and when
         * the name is a template its arguments are the scope for {@code T_} in the signature.
         */
        private void encoding(Encoding e) {
            Mod hold = modifiers;
            Frame holdTemplates = templates;
            modifiers = null;
            try {
                if (!e.quals().isEmpty()) {
                    push(new FnQuals(e.quals()));
                }
                Mod name = push(new NameMod(e.name()));
                Node typed = e.name();
                if (typed instanceof Local l) {
                    typed = l.entity() instanceof DefaultArg d ? d.entity() : l.entity();
                }
                if (typed instanceof Template t) {
                    templates = new Frame(t.args(), templates);
                }
                comp(e.type());
                templates = holdTemplates;
                for (Mod p = name; p != null; p = p.next) {
                    if (!p.printed) {
                        throw fail(); // cannot happen for a function type; refuse, don't guess
                    }
                }
            } finally {
                modifiers = hold;
                templates = holdTemplates;
            }
        }

        private void literal(Literal l) {
            Style style = l.type() instanceof Builtin b ? b.style() : Style.DEFAULT;
            String suffix = switch (style) {
                case INT -> "";
                case UNSIGNED -> "u";
                case LONG -> "l";
                case ULONG -> "ul";
                case LLONG -> "ll";
                case ULLONG -> "ull";
                default -> null;
            };
            if (suffix != null) {
                if (l.negative()) {
                    append('-');
                }
                append(l.value());
                append(suffix);
                return;
            }
            if (style == Style.BOOL && !l.negative()) {
                if (l.value().equals("0")) {
                    append("false");
                    return;
                }
                if (l.value().equals("1")) {
                    append("true");
                    return;
                }
            }
            append('(');
            comp(l.type());
            append(')');
            if (l.negative()) {
                append('-');
            }
            if (style == Style.FLOAT) {
                append('[');
            }
            append(l.value());
            if (style == Style.FLOAT) {
                append(']');
            }
        }

        /** An operand: parenthesized unless it is a plain name or a function parameter. */
        private void subexpr(Node n) {
            boolean simple = n instanceof Name || n instanceof Qual || n instanceof FunctionParam;
            if (!simple) {
                append('(');
            }
            comp(n);
            if (!simple) {
                append(')');
            }
        }

        private void unary(Unary u) {
            Node operand = u.operand();
            String code = u.op().code();
            if (code.equals("ad") && operand instanceof Encoding e && e.quals().isEmpty()
                    && e.name() instanceof Qual) {
                operand = e.name(); // &A::f names the function without its parameter list
            }
            append(u.op().text());
            if (code.equals("st")) {
                append('(');
                comp(operand);
                append(')');
            } else {
                subexpr(operand);
            }
        }

        private void binary(Binary b) {
            String code = b.op().code();
            if (NEW_CASTS.contains(code)) {
                append(b.op().text());
                append('<');
                comp(b.left());
                append(">(");
                comp(b.right());
                append(')');
                return;
            }
            // a lone '>' is wrapped so it cannot be read as the end of the template arguments
            boolean wrap = b.op().text().equals(">");
            if (wrap) {
                append('(');
            }
            if (code.equals("cl") && b.left() instanceof Encoding callee) {
                subexpr(callee.name()); // a called function shows no parameter types
            } else {
                subexpr(b.left());
            }
            if (code.equals("ix")) {
                append('[');
                comp(b.right());
                append(']');
            } else {
                if (!code.equals("cl")) {
                    append(b.op().text());
                }
                subexpr(b.right());
            }
            if (wrap) {
                append(')');
            }
        }
    }
}
