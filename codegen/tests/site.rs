//! The register-map site (`codegen doc`), as a person sees it: generated from the repository's
//! manifest, its links checked offline, then loaded by headless Chromium from the folder. The
//! browser runs the search (driven by the page address, as the header search box does), the test
//! reads the resulting DOM, fails on any console message, and saves screenshots under
//! `target/register-site-test/` (their paths are printed). Chromium missing is a failure that
//! names the installer, never a skip.
use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const CHROMIUM: &str = "/usr/bin/chromium";

fn repo() -> PathBuf {
    fs::canonicalize(Path::new(env!("CARGO_MANIFEST_DIR")).join("..")).unwrap()
}

/// The test's folder under the workspace's target directory, where the site and the screenshots
/// stay for a person to look at.
fn work_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target"));
    target.join("register-site-test")
}

fn generate_site() -> PathBuf {
    let site = work_dir().join("site");
    let out = Command::new(env!("CARGO_BIN_EXE_armreg-codegen"))
        .arg("--root")
        .arg(repo())
        .arg("doc")
        .arg("-o")
        .arg(&site)
        .output()
        .expect("codegen runs");
    assert!(
        out.status.success(),
        "codegen doc failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    site
}

fn pages(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "html") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The values of every `name="…"` attribute in `html`.
fn attributes<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let key = format!(" {name}=\"");
    html.match_indices(&key)
        .map(|(i, _)| {
            let rest = &html[i + key.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

/// Every page's links lead to a page of the site and, with a `#fragment`, to an element with that
/// id; nothing is loaded from anywhere else.
fn check_links(site: &Path) -> usize {
    let all = pages(site);
    let mut links = 0;
    for page in &all {
        let html = fs::read_to_string(page).unwrap();
        for attr in ["src", "action"] {
            for v in attributes(&html, attr) {
                assert!(
                    !v.contains("://") && !v.starts_with("//"),
                    "{}: {attr}=\"{v}\" loads from elsewhere",
                    page.display()
                );
            }
        }
        for href in attributes(&html, "href") {
            assert!(
                !href.contains("://") && !href.starts_with("//"),
                "{}: link to elsewhere: {href}",
                page.display()
            );
            let (file, fragment) = href.split_once('#').unwrap_or((href, ""));
            let target = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            let text = fs::read_to_string(&target).unwrap_or_else(|_| {
                panic!("{}: broken link {href}", page.display());
            });
            if !fragment.is_empty() {
                assert!(
                    text.contains(&format!(" id=\"{fragment}\"")),
                    "{}: link {href}: no element with id {fragment}",
                    page.display()
                );
            }
            links += 1;
        }
    }
    links
}

/// What one headless Chromium run gave: the DOM after the page's script ran, and its log.
struct Loaded {
    dom: String,
    console: Vec<String>,
}

fn chromium(url: &str, screenshot: Option<&Path>) -> Loaded {
    assert!(
        Path::new(CHROMIUM).is_file(),
        "{CHROMIUM} is not installed: the site's browser test needs it. Run `bash tests/docs/install.sh` \
         (or `apt-get install chromium`)"
    );
    let profile = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(CHROMIUM);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--window-size=1280,1100",
        // Console messages go to stderr as `INFO:CONSOLE…] "message", source: …`.
        "--enable-logging=stderr",
        "--v=0",
    ])
    .arg(format!("--user-data-dir={}", profile.path().display()));
    match screenshot {
        Some(png) => cmd.arg(format!("--screenshot={}", png.display())),
        None => cmd.arg("--dump-dom"),
    };
    let out = cmd.arg(url).output().expect("chromium runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "chromium failed on {url}:\n{stderr}");
    Loaded {
        dom: String::from_utf8_lossy(&out.stdout).into_owned(),
        console: stderr
            .lines()
            .filter(|l| l.contains(":CONSOLE"))
            .map(str::to_string)
            .collect(),
    }
}

fn url(site: &Path, page: &str) -> String {
    format!(
        "file://{}/{page}",
        fs::canonicalize(site).unwrap().display()
    )
}

/// The search results in a dumped DOM, as (name, link) pairs.
fn hits(dom: &str) -> Vec<(String, String)> {
    dom.split("<li class=\"hit\">")
        .skip(1)
        .map(|li| {
            let href = attributes(li, "href")[0].to_string();
            let start = li.find("\">").unwrap() + 2;
            let name = li[start..start + li[start..].find("</a>").unwrap()].to_string();
            (name, href)
        })
        .collect()
}

fn assert_quiet(what: &str, page: &Loaded) {
    assert!(
        page.console.is_empty(),
        "{what}: the browser console is not empty:\n{}",
        page.console.join("\n")
    );
}

fn assert_png(path: &Path) {
    let bytes = fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        bytes.len() > 10_000 && bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
        "{} is not a screenshot",
        path.display()
    );
    println!("screenshot: {}", path.display());
}

#[test]
fn register_site_in_a_browser() {
    let site = generate_site();
    let all = pages(&site);
    let names: BTreeSet<String> = all
        .iter()
        .map(|p| p.strip_prefix(&site).unwrap().display().to_string())
        .collect();
    for page in [
        "index.html",
        "arm-pmuv3/index.html",
        "arm-pmuv3/registers/PMCCFILTR.html",
        "arm-pmuv3/registers/PMCR.html",
        "ti-am62l-pmu/index.html",
        "arm-pmu-events/index.html",
    ] {
        assert!(names.contains(page), "the site has no {page}");
    }
    let links = check_links(&site);
    println!("{} pages, {links} links checked", all.len());

    // Search from the address, as the header's search box submits it.
    let found = chromium(&url(&site, "index.html?q=PMCCFILTR_EL0"), None);
    assert_quiet("index.html?q=PMCCFILTR_EL0", &found);
    assert!(
        found.dom.contains("data-search-ready=\"true\""),
        "the search script did not finish:\n{}",
        found.dom
    );
    let results = hits(&found.dom);
    // Both crates that have the register come first (by crate), then the fields of that name
    // (the fine-grained trap registers' bits for it).
    let register = |krate: &str| {
        (
            "PMCCFILTR_EL0".to_string(),
            format!("{krate}/registers/PMCCFILTR.html"),
        )
    };
    assert_eq!(
        results.get(..2),
        Some(&[register("aarch64-sysregs"), register("arm-pmuv3")][..]),
        "search results: {results:?}"
    );
    // Fields are found too, each linking to its row.
    let fields = chromium(&url(&site, "index.html?q=evtCount"), None);
    assert_quiet("index.html?q=evtCount", &fields);
    assert!(
        hits(&fields.dom)
            .iter()
            .any(|(n, h)| n == "evtCount"
                && h == "arm-pmuv3/registers/PMEVTYPER.html#field-evtCount"),
        "no evtCount field among {:?}",
        hits(&fields.dom)
    );

    // The register page: diagram, every path's encoding, the absolute address per instance.
    let register = chromium(&url(&site, "arm-pmuv3/registers/PMCCFILTR.html"), None);
    assert_quiet("PMCCFILTR.html", &register);
    for text in [
        "aria-label=\"Bit fields of PMCCFILTR\"",
        "S3_3_C14_C15_7",
        "MRS &lt;Xt&gt;, S3_3_C14_C15_7",
        "0x47c",
        "DDI0487 §D24.5 PMCCFILTR_EL0",
    ] {
        assert!(register.dom.contains(text), "PMCCFILTR.html lacks {text}");
    }
    // The AArch32 PMCCFILTR has a layout of its own (M, SH, RLK and RLH are RES0 there).
    let aarch32 = chromium(&url(&site, "arm-pmuv3/registers/PMCCFILTR_A32.html"), None);
    assert_quiet("PMCCFILTR_A32.html", &aarch32);
    assert!(
        aarch32.dom.contains("MRC p15, 0, &lt;Rt&gt;, c14, c15, 7"),
        "PMCCFILTR_A32.html lacks the MRC encoding"
    );
    let device = chromium(&url(&site, "ti-am62l-pmu/index.html"), None);
    assert_quiet("ti-am62l-pmu/index.html", &device);
    assert!(
        device.dom.contains("0x7_3013_0e04"),
        "the AM62L address map lacks PMCR's absolute address in PMU_CPU1"
    );

    // A partial name finds every path of every device that has it.
    let partial = chromium(&url(&site, "index.html?q=pmccfiltr"), None);
    assert_quiet("index.html?q=pmccfiltr", &partial);
    let names: BTreeSet<String> = hits(&partial.dom).into_iter().map(|(n, _)| n).collect();
    for name in ["PMCCFILTR", "PMCCFILTR_EL0"] {
        assert!(
            names.contains(name),
            "pmccfiltr does not find {name}: {names:?}"
        );
    }

    let shots = work_dir();
    let search_png = shots.join("search-PMCCFILTR.png");
    let shot = chromium(&url(&site, "index.html?q=PMCCFILTR"), Some(&search_png));
    assert_quiet("screenshot of the search", &shot);
    assert_png(&search_png);
    let register_png = shots.join("register-PMCR.png");
    let shot = chromium(
        &url(&site, "arm-pmuv3/registers/PMCR.html"),
        Some(&register_png),
    );
    assert_quiet("screenshot of PMCR", &shot);
    assert_png(&register_png);
}

/// The site of description files, the way `generate` takes them (`doc <files> --name`): each
/// register and field with its Rust path beside the vendor's names, one search box on the index,
/// and a search by a Rust name that finds the layout.
#[test]
fn a_site_of_any_input_shows_the_rust_names() {
    let site = work_dir().join("site-of-inputs");
    let out = Command::new(env!("CARGO_BIN_EXE_armreg-codegen"))
        .current_dir(repo())
        .args([
            "doc",
            "tests/build-script-user/registers/soc.svd",
            "--name",
            "soc-regs",
            "--allow",
            "no_duplicate_names",
            "-o",
        ])
        .arg(&site)
        .output()
        .expect("armreg-codegen runs");
    assert!(
        out.status.success(),
        "doc failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    check_links(&site);

    let index = chromium(&url(&site, "index.html?q=Uart0Ctrl"), None);
    assert_quiet("index.html?q=Uart0Ctrl", &index);
    assert_eq!(
        index.dom.matches("type=\"search\"").count(),
        1,
        "the index has one search box:\n{}",
        index.dom
    );
    let results = hits(&index.dom);
    assert_eq!(
        results.first(),
        Some(&(
            "UART0_CTRL".to_string(),
            "soc-regs/registers/UART0_CTRL.html".to_string()
        )),
        "search results: {results:?}"
    );

    let register = chromium(&url(&site, "soc-regs/registers/UART0_CTRL.html"), None);
    assert_quiet("UART0_CTRL.html", &register);
    for text in [
        "<code class=\"rust\">soc_regs::Uart0Ctrl</code>",
        "<code class=\"rust\">soc_regs::mmio::Uart0::ctrl()</code>",
        "<code class=\"rust\">Uart0Ctrl::EN</code>",
        "<code class=\"rust\">Uart0Ctrl::PARITY</code>",
    ] {
        assert!(
            register.dom.contains(text),
            "UART0_CTRL.html lacks {text}:\n{}",
            register.dom
        );
    }
    let gpio = chromium(&url(&site, "soc-regs/registers/GPIOA_OUT.html"), None);
    assert!(
        gpio.dom
            .contains("<code class=\"rust\">GpioaOut::PIN.at::&lt;3&gt;()</code>"),
        "GPIOA_OUT.html lacks the field array's element"
    );
}
