package dev.vprof.names;

import static dev.vprof.names.DemangleTree.*;
import static dev.vprof.names.Demangler.MAX_DEPTH;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A recursive-descent parser of the ABI grammar into a {@link DemangleTree} tree, keeping the
 * substitution table ({@code S_}, {@code S0_}, ...) as references to earlier subtrees.
 */
final class DemangleParser {
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

    DemangleParser(String s) {
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

