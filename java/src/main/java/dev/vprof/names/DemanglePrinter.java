package dev.vprof.names;

import static dev.vprof.names.DemangleTree.*;
import static dev.vprof.names.Demangler.MAX_DEPTH;
import static dev.vprof.names.Demangler.MAX_OUTPUT;
import static dev.vprof.names.Demangler.MAX_PRINT_STEPS;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** Prints a {@link DemangleTree} tree as binutils' c++filt prints the name. */
final class DemanglePrinter {
    private DemanglePrinter() {}

    /**
     * A pending part of a declarator. C++ declarators are inside out ({@code void (*)(int)}:
     * the pointer sits inside the function type), so a pointer, reference, qualifier or
     * function name is pushed while the type it modifies is printed; a function or array type
     * prints the pending modifiers in its middle and marks them printed, and any modifier
     * still unprinted afterwards is appended by whoever pushed it.
     */
    static final class Mod {
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
    record Frame(Args args, Frame next) {}

    /**
     * Walks the tree and writes c++filt's text. The pending modifiers are printer state, not a
     * parameter: c++filt lets them reach everything printed beneath a modifier except through
     * the places that reset them (template arguments, function parameters, a function's own
     * name), and a few odd outputs depend on exactly that.
     */
    static final class Printer {
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
