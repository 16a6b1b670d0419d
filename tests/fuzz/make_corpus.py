"""Builds the seed corpora and the dictionary of the fuzzers (the input loader's and the set-up's).

Usage: make_corpus.py SOURCE_DIR OUT_DIR
Writes OUT_DIR/seeds/ (every inputs/**/*.xml plus the hand-made hostile inputs below), OUT_DIR/corpus/ (empty: where
libFuzzer keeps what it finds), the set-up fuzzer's OUT_DIR/setup-seeds/ (every tests/**/*.xml, refused ones included)
and OUT_DIR/setup-corpus/, OUT_DIR/fuzz.dict (xml.dict plus the element and attribute names of schema/*.xsd) and
OUT_DIR/seeds.stamp. Only the standard library, so it runs on a bare Debian python3.
"""
import glob
import os
import re
import shutil
import sys

# Small inputs that each hit one refusal or parser path; the loader must answer each with one file:line error.
HAND_MADE = {
    "empty.xml": b"",
    "whitespace.xml": b" \n\t\n",
    "not_xml.xml": b"this is not XML at all\n",
    "unclosed.xml": b"<?xml version=\"1.0\"?>\n<rodpair>\n  <rod length=\"1\">\n</rodpair>\n",
    "bad_attribute.xml": b"<rodpair>\n  <rod length=1/>\n</rodpair>\n",
    "two_roots.xml": b"<a/>\n<b/>\n",
    "unknown_root.xml": b"<?xml version=\"1.0\"?>\n<no_such_solver/>\n",
    "bom_utf8.xml": b"\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<x/>\n",
    "utf16.xml": "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<x a=\"\u00e9\"/>\n".encode("utf-16"),
    "bad_encoding.xml": b"<?xml version=\"1.0\" encoding=\"no-such-encoding\"?>\n<x/>\n",
    "invalid_utf8.xml": b"<x a=\"\xc3\x28\xff\"/>\n",
    "nul_byte.xml": b"<x>\x00</x>\n",
    "cdata_comment_pi.xml": b"<x><!-- c --><![CDATA[<not a tag>]]><?pi data?></x>\n",
    "char_refs.xml": b"<x a=\"&#x41;&#66;&lt;&amp;\">&#xD800;&#0;</x>\n",
    "undefined_entity.xml": b"<x>&undefined;</x>\n",
    "deep.xml": b"<x>" * 5000 + b"</x>" * 5000,
    "long_attribute.xml": b"<x a=\"" + b"9" * 100000 + b"\"/>\n",
    "many_attributes.xml": b"<x " + b" ".join(b"a%d=\"%d\"" % (i, i) for i in range(2000)) + b"/>\n",
    "long_line.xml": b"<x>" + b" " * 200000 + b"</x>\n",
    "many_lines.xml": b"\n" * 100000 + b"<x>\n</y>\n",
    "options.xml": b"<rodpair>\n  <options>-quiet -rodpair_solver rk45 -malloc_dump</options>\n</rodpair>\n",
    "numbers.xml": b"<rodpair length=\"1e309\" E=\"-0\" rho=\"nan\" mu_s=\"0x1p-1074\" mu_k=\"inf\" n=\"99999999999999999999\"/>\n",
    # billion laughs: exponential entity expansion
    "entity_bomb.xml": b"<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n"
    + b"".join(b" <!ENTITY lol%d \"%s\">\n" % (i, b"".join(b"&lol%s;" % (b"" if i == 1 else b"%d" % (i - 1)) for _ in range(10)))
               for i in range(1, 10))
    + b"]>\n<rodpair>&lol9;</rodpair>\n",
    "quadratic_blowup.xml": b"<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY a \"" + b"a" * 50000 + b"\">]>\n<x>" + b"&a;" * 5000 + b"</x>\n",
    # external entities (XXE): local file, network, parameter entity, external DTD
    "xxe_file.xml": b"<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<rodpair>&xxe;</rodpair>\n",
    "xxe_network.xml": b"<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY xxe SYSTEM \"http://127.0.0.1:9/x\">]>\n<rodpair>&xxe;</rodpair>\n",
    "xxe_parameter.xml": b"<?xml version=\"1.0\"?>\n<!DOCTYPE x [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]>\n<rodpair/>\n",
    "external_dtd.xml": b"<?xml version=\"1.0\"?>\n<!DOCTYPE rodpair SYSTEM \"file:///etc/passwd\">\n<rodpair/>\n",
    "xinclude.xml": b"<rodpair xmlns:xi=\"http://www.w3.org/2001/XInclude\"><xi:include href=\"/etc/passwd\" parse=\"text\"/></rodpair>\n",
    "schema_location.xml": b"<rodpair xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:noNamespaceSchemaLocation=\"http://127.0.0.1:9/x.xsd\"/>\n",
}


def schema_names(source):
    """Element, attribute and type names declared in the schemas: tokens that reach deeper into validation."""
    names = set()
    for xsd in sorted(glob.glob(os.path.join(source, "schema", "*.xsd"))):
        with open(xsd, encoding="utf-8", errors="replace") as f:
            text = f.read()
        names.update(re.findall(r"<xs:(?:element|attribute)\s[^>]*?name=\"([A-Za-z_][\w.-]*)\"", text))
        names.update(re.findall(r"<xs:enumeration\s[^>]*?value=\"([^\"<>&\\]{1,40})\"", text))
    return sorted(names)


def main():
    source, out = sys.argv[1], sys.argv[2]
    seeds = os.path.join(out, "seeds")
    shutil.rmtree(seeds, ignore_errors=True)
    os.makedirs(seeds)
    os.makedirs(os.path.join(out, "corpus"), exist_ok=True)
    inputs = sorted(glob.glob(os.path.join(source, "inputs", "**", "*.xml"), recursive=True))
    for path in inputs:
        name = "input_" + os.path.relpath(path, os.path.join(source, "inputs")).replace(os.sep, "_")
        shutil.copyfile(path, os.path.join(seeds, name))
    for name, data in HAND_MADE.items():
        with open(os.path.join(seeds, "hand_" + name), "wb") as f:
            f.write(data)
    # the set-up fuzzer's seeds: the small inputs of the tests, among them every refused one (its error paths)
    setup = os.path.join(out, "setup-seeds")
    shutil.rmtree(setup, ignore_errors=True)
    os.makedirs(setup)
    tests = sorted(glob.glob(os.path.join(source, "tests", "**", "*.xml"), recursive=True))
    for path in tests:
        shutil.copyfile(path, os.path.join(setup, os.path.relpath(path, os.path.join(source, "tests")).replace(os.sep, "_")))
    os.makedirs(os.path.join(out, "setup-corpus"), exist_ok=True)
    names = schema_names(source)
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "xml.dict"), encoding="utf-8") as f:
        dictionary = f.read()
    with open(os.path.join(out, "fuzz.dict"), "w", encoding="utf-8") as f:
        f.write(dictionary)
        f.write("# from schema/*.xsd\n")
        for n in names:
            f.write(f"\"<{n}\"\n\"</{n}>\"\n\"{n}=\\\"\"\n")
    with open(os.path.join(out, "seeds.stamp"), "w") as f:
        f.write(f"{len(inputs)} inputs, {len(HAND_MADE)} hand-made seeds, {len(tests)} set-up seeds, {len(names)} schema names\n")
    print(f"fuzz corpus: {len(inputs)} inputs from inputs/, {len(HAND_MADE)} hand-made seeds, {len(tests)} set-up seeds from tests/, "
          f"{len(names)} schema names in the dictionary")


if __name__ == "__main__":
    main()
