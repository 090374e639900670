"""Write ``tests/fixtures/formats/``: one made-up library of 24 papers in each input format kg reads, shaped as the
real exports are (Zotero, Mendeley and ACL Anthology BibTeX, Zotero RIS and CSL-JSON, an OpenAlex snapshot part, a
Semantic Scholar API response, OpenReview API v1 and v2 notes, arXiv snapshot lines), each with a few broken or
incomplete records. Titles, abstracts and names are invented; ``tests/test_formats.py`` reads the files.

    python tools/dev/format_fixtures.py
"""
from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "formats"
rng = random.Random(41)
METHODS = ["GraphMix", "SparseFormer", "TokenDrop", "LoRA-Lite", "ContraNet", "DiffPrune", "MetaAdapt", "RetroFlow",
           "QuantGuard", "FlowMatch-X", "PromptBridge", "EchoNet", "SwinLite", "HyperTune", "CausalLens", "VoxelDiff",
           "AlignRL", "MergeKit-S", "BayesLoRA", "ChainProbe", "ReLoc", "NeuralSieve", "DistilPose", "CodeCritic"]
TASKS = ["image classification", "machine translation", "node classification", "question answering",
         "semantic segmentation", "speech recognition", "text summarization", "object detection",
         "code generation", "molecular property prediction", "pose estimation", "offline reinforcement learning"]
DATASETS = ["ImageNet", "WMT14 En-De", "Cora", "SQuAD", "ADE20K", "LibriSpeech", "CNN/DailyMail", "COCO",
            "HumanEval", "QM9", "Human3.6M", "D4RL"]
METRICS = ["top-1 accuracy", "BLEU", "accuracy", "F1", "mIoU", "word error rate", "ROUGE-L", "AP", "pass@1", "MAE",
           "MPJPE", "normalized return"]
FIRST = ["Ana", "Jérôme", "Wei", "Priya", "Lukas", "Sofía", "Kenji", "Amara", "Oliver", "Zoë", "Mateusz", "Hana",
         "Ilya", "Chloé", "Tomás", "Yuki"]
LAST = ["Müller", "García", "Chen", "Nakamura", "Okafor", "Novák", "Dubois", "Kowalski", "Singh", "Ødegaard",
        "Schröder", "Lefèvre", "Park", "Rossi", "Haddad", "Ivanova"]
TEX = {"ü": r'{\"u}', "é": r"{\'e}", "í": r"{\'i}", "ö": r'{\"o}', "á": r"{\'a}", "ë": r'{\"e}', "è": r"{\`e}",
       "Ø": r"{\O}", "ø": r"{\o}"}
VENUES = [("NeurIPS", "Advances in Neural Information Processing Systems"), ("ICML", "Proceedings of the 40th International Conference on Machine Learning"),
          ("ACL", "Proceedings of the 61st Annual Meeting of the Association for Computational Linguistics"),
          ("CVPR", "Proceedings of the IEEE/CVF Conference on Computer Vision and Pattern Recognition"),
          ("TMLR", "Transactions on Machine Learning Research"), ("ICLR", "International Conference on Learning Representations")]


def ascii_key(s):
    import unicodedata
    return unicodedata.normalize("NFKD", s.replace("Ø", "O")).encode("ascii", "ignore").decode().lower()


def tex(s):
    return "".join(TEX.get(c, c) for c in s)


papers = []
for i, m in enumerate(METHODS):
    t = i % len(TASKS)
    year = 2019 + i % 6
    arxiv = f"{year % 100:02d}{1 + i % 12:02d}.{10000 + 137 * i:05d}" if i % 3 != 2 else None
    doi = f"10.{5555 + i % 3}/{m.lower().replace('-', '')}.{year}.{100 + i}" if i % 4 != 1 else None
    authors = [(FIRST[(i + k) % 16], LAST[(3 * i + k) % 16]) for k in range(2 + i % 3)]
    venue = VENUES[i % len(VENUES)]
    math = i % 5 == 0
    title = (f"{m}: " + rng.choice(["Scalable", "Efficient", "Robust", "Simple"]) + f" {TASKS[t].title()} with "
             + rng.choice(["Sparse Attention", "Mixture Models", "Low-Rank Updates", "Contrastive Pretraining"]))
    if math:
        title += r" in $\mathcal{O}(n \log n)$ Time"
    abstract = (f"We propose {m}, a method for {TASKS[t]} that "
                + rng.choice(["reuses pretrained features", "prunes redundant tokens", "learns a shared latent space",
                              "adapts to distribution shift"])
                + f". On {DATASETS[t]}, {m} improves {METRICS[t]} by {rng.randint(11, 49) / 10}% over the strongest "
                + "baseline" + (r" while using $\alpha \leq 0.1$ of the parameters" if math else "")
                + f". Code is available for {TASKS[(t + 1) % 12]} as well.")
    papers.append(dict(i=i, key=ascii_key(authors[0][1]) + f"{year}{m.lower().replace('-', '')}", title=title,
                       abstract=abstract, authors=authors, year=year, venue=venue, doi=doi, arxiv=arxiv,
                       keywords=[TASKS[t], rng.choice(["deep learning", "transformers", "efficiency", "benchmarks"])]))


def bib_escape_zotero(text):  # Zotero escapes TeX's special characters in abstracts
    return text.replace("\\", "{\\textbackslash}").replace("$", "\\$").replace("%", "\\%").replace("_", "\\_")


def bibtex():
    out = ["% Exported from Zotero, Mendeley and the ACL Anthology, then concatenated\n",
           "@string{neurips = {Advances in Neural Information Processing Systems}}\n"]
    for p in papers:
        i, style = p["i"], ("zotero", "mendeley", "acl")[p["i"] % 3]
        names = " and ".join(f"{tex(l)}, {tex(f)}" for f, l in p["authors"])
        title = p["title"]
        if style == "zotero":
            words = " ".join("{" + w + "}" if w[:1].isupper() and i % 2 else w for w in title.split(" "))
            kind = "misc" if p["arxiv"] and not p["doi"] else "inproceedings"
            fields = [("title", "{" + words + "}")]
            if p["arxiv"] and not p["doi"]:
                fields += [("url", "{http://arxiv.org/abs/" + p["arxiv"] + "}"),
                           ("doi", "{10.48550/arXiv." + p["arxiv"] + "}")]
            else:
                fields += [("url", "{https://doi.org/" + (p["doi"] or "") + "}")] if p["doi"] else []
                fields += [("doi", "{" + p["doi"] + "}")] if p["doi"] else []
                fields += [("booktitle", "{" + p["venue"][1] + "}")]
            if i != 9:  # one entry without an abstract, as many Zotero items are
                fields += [("abstract", "{" + bib_escape_zotero(p["abstract"]) + "}")]
            fields += [("urldate", "{2024-03-01}"), ("publisher", "{arXiv}" if kind == "misc" else "{Curran Associates, Inc.}"),
                       ("author", "{" + names + "}"), ("month", "mar"), ("year", "{" + str(p["year"]) + "}"),
                       ("note", "{arXiv:" + p["arxiv"] + " [cs]}" if p["arxiv"] else "{}"),
                       ("keywords", "{" + ", ".join(k.title() for k in p["keywords"]) + "}"),
                       ("file", "{arXiv Fulltext PDF:/home/user/Zotero/storage/ABCD" + str(i) + "/paper.pdf:application/pdf}")]
            body = ",\n".join(f"\t{k} = {v}" for k, v in fields if v != "{}")
            out.append(f"\n@{kind}{{{p['key']},\n{body},\n}}\n")
        elif style == "mendeley":
            fields = [("abstract", "{" + p["abstract"] + "}")]
            if p["arxiv"]:
                fields += [("archivePrefix", "{arXiv}"), ("arxivId", "{" + p["arxiv"] + "}"), ("eprint", "{" + p["arxiv"] + "}")]
            fields += [("author", "{" + names + "}"), ("doi", "{" + p["doi"] + "}") if p["doi"] else ("file", "{:paper.pdf:pdf}"),
                       ("journal", "{" + p["venue"][1] + "}" if p["venue"][0] == "TMLR" else "neurips" if p["venue"][0] == "NeurIPS" else "{" + p["venue"][1] + "}"),
                       ("keywords", "{" + ",".join(p["keywords"]) + "}"), ("mendeley-groups", "{Reading list}"),
                       ("title", "{{" + title + "}}"), ("year", "{" + str(p["year"]) + "}")]
            body = ",\n".join(f"{k} = {v}" for k, v in fields)
            out.append(f"\n@article{{{p['key'][:6].title()}{p['year']},\n{body}\n}}\n")
        else:
            anth = f"{p['year']}.acl-long.{100 + i}"
            fields = [("title", '"' + title.replace(p["title"].split(":")[0], "{" + p["title"].split(":")[0] + "}", 1) + '"'),
                      ("author", '"' + " and\n      ".join(f"{tex(l)}, {tex(f)}" for f, l in p["authors"]) + '"'),
                      ("editor", '"Rogers, Anna  and Boyd-Graber, Jordan"'), ("booktitle", '"' + p["venue"][1] + '"'),
                      ("month", "jul"), ("year", '"' + str(p["year"]) + '"'), ("address", '"Toronto, Canada"'),
                      ("publisher", '"Association for Computational Linguistics"'),
                      ("url", '"https://aclanthology.org/' + anth + '"')]
            fields += [("doi", '"' + p["doi"] + '"')] if p["doi"] else []
            fields += [("pages", f'"{100 + i}--{110 + i}"'), ("abstract", '"' + p["abstract"].replace("%", "\\%") + '"')]
            body = ",\n".join(f"    {k} = {v}" for k, v in fields)
            out.append(f"\n@inproceedings{{{p['key']}-acl,\n{body},\n}}\n")
        if i == 14:  # a broken entry: a missing closing brace in its title, as hand edits leave them
            out.append("\n@article{broken2021,\n  title = {Unbalanced {Braces in a Title},\n  year = {2021},\n}\n")
    return "".join(out)


def ris():
    out = []
    for p in papers:
        lines = [("TY", "CONF" if p["venue"][0] != "TMLR" else "JOUR"), ("TI", p["title"])]
        lines += [("AU", f"{l}, {f}") for f, l in p["authors"]]
        lines += [("T2", p["venue"][1]), ("DA", f"{p['year']}/07/01/"), ("PY", str(p["year"]))]
        if p["i"] != 4:
            lines += [("AB", p["abstract"])]
        if p["doi"]:
            lines += [("DO", p["doi"])]
        if p["arxiv"]:
            lines += [("UR", f"http://arxiv.org/abs/{p['arxiv']}")]
        lines += [("KW", k) for k in p["keywords"]]
        lines += [("N1", "Citation Key: " + p["key"]), ("ER", "")]
        out.append("\n".join(f"{t}  - {v}".rstrip() if t == "ER" else f"{t}  - {v}" for t, v in lines) + "\n\n")
        if p["i"] == 11:  # a truncated record, then junk text outside a record
            out.append("TI  - A record without its TY line\nAB  - Lost.\nER  - \n\n")
    return "".join(out)


def csl():
    items = []
    for p in papers:
        item = {"id": f"http://zotero.org/users/123/items/{p['key'].upper()[:8]}",
                "type": "article" if p["arxiv"] and not p["doi"] else "paper-conference",
                "title": p["title"], "author": [{"family": l, "given": f} for f, l in p["authors"]],
                "issued": {"date-parts": [[p["year"], 7, 1]]}, "accessed": {"date-parts": [[2024, 3, 1]]},
                "keyword": ", ".join(p["keywords"]), "language": "en", "source": "arXiv.org"}
        if p["i"] != 7:
            item["abstract"] = p["abstract"]
        if p["doi"]:
            item["DOI"] = p["doi"]
            item["container-title"] = p["venue"][1]
        if p["arxiv"]:
            item["number"] = "arXiv:" + p["arxiv"]
            item["URL"] = "http://arxiv.org/abs/" + p["arxiv"]
            if not p["doi"]:
                item["DOI"] = "10.48550/arXiv." + p["arxiv"]
                item["publisher"] = "arXiv"
        items.append(item)
    return json.dumps(items, indent=2, ensure_ascii=False) + "\n"


def inverted(text):
    index = {}
    for k, w in enumerate(text.split()):
        index.setdefault(w, []).append(k)
    return index


def openalex():
    lines = []
    for p in papers:
        w = f"W{4300000000 + 7919 * p['i']}"
        locations = [{"is_oa": True, "landing_page_url": f"https://doi.org/{p['doi']}" if p["doi"] else None,
                      "pdf_url": None, "source": {"id": "https://openalex.org/S4306420609",
                                                   "display_name": p["venue"][1], "type": "conference"}}]
        if p["arxiv"]:
            locations.append({"is_oa": True, "landing_page_url": f"http://arxiv.org/abs/{p['arxiv']}",
                              "pdf_url": f"http://arxiv.org/pdf/{p['arxiv']}v2",
                              "source": {"id": "https://openalex.org/S4306400194",
                                         "display_name": "arXiv (Cornell University)", "type": "repository"}})
        work = {"id": f"https://openalex.org/{w}", "doi": f"https://doi.org/{p['doi']}" if p["doi"] else None,
                "title": p["title"], "display_name": p["title"], "publication_year": p["year"],
                "publication_date": f"{p['year']}-07-01",
                "ids": {"openalex": f"https://openalex.org/{w}", "doi": f"https://doi.org/{p['doi']}" if p["doi"] else None},
                "language": "en", "primary_location": locations[0], "locations": locations,
                "type": "article", "open_access": {"is_oa": True},
                "authorships": [{"author_position": "first" if k == 0 else "middle",
                                 "author": {"id": f"https://openalex.org/A{5000 + k}", "display_name": f"{f} {l}"},
                                 "institutions": []} for k, (f, l) in enumerate(p["authors"])],
                "cited_by_count": 10 * p["i"],
                "concepts": [{"id": "https://openalex.org/C154945302", "display_name": "Artificial intelligence",
                              "level": 1, "score": 0.52}, {"id": "https://openalex.org/C41008148",
                              "display_name": "Computer science", "level": 0, "score": 0.61},
                             {"id": "https://openalex.org/C2776214188", "display_name": "Pipeline (software)", "level": 2,
                              "score": 0.12}],
                "keywords": [{"id": f"https://openalex.org/keywords/{k.replace(' ', '-')}", "display_name": k,
                              "score": 0.5} for k in p["keywords"][:1]],
                "abstract_inverted_index": inverted(p["abstract"]) if p["i"] != 5 else None,
                "updated_date": "2024-05-01T00:00:00.000000"}
        lines.append(json.dumps(work, ensure_ascii=False))
        if p["i"] == 17:  # a line cut short, as an interrupted download leaves it
            lines.append(json.dumps(work)[:200])
    return "\n".join(lines) + "\n"


def semantic_scholar():
    data = []
    for p in papers:
        ext = {"CorpusId": 250000000 + p["i"]}
        if p["doi"]:
            ext["DOI"] = p["doi"].upper() if p["i"] % 2 else p["doi"]
        if p["arxiv"]:
            ext["ArXiv"] = p["arxiv"]
        pid = hashlib.sha1(p["key"].encode()).hexdigest()
        data.append({"paperId": pid, "externalIds": ext, "url": f"https://www.semanticscholar.org/paper/{pid}",
                     "title": p["title"], "abstract": p["abstract"] if p["i"] != 13 else None,
                     "venue": p["venue"][1], "year": p["year"],
                     "authors": [{"authorId": str(1000 + k), "name": f"{f} {l}"} for k, (f, l) in enumerate(p["authors"])],
                     "fieldsOfStudy": ["Computer Science"], "openAccessPdf": None})
    return json.dumps({"total": len(data), "offset": 0, "next": len(data), "data": data}, indent=2, ensure_ascii=False) + "\n"


def openreview(version):
    notes = []
    for p in papers[:22]:
        v = p["venue"][0] if p["venue"][0] in ("ICLR", "NeurIPS", "ICML") else "ICLR"
        pick = random.Random(p["i"])
        nid = "".join(pick.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") for _ in range(10))
        content = {"title": p["title"], "authors": [f"{f} {l}" for f, l in p["authors"]],
                   "authorids": [f"~{f}_{l}1" for f, l in p["authors"]], "keywords": p["keywords"],
                   "abstract": p["abstract"], "pdf": f"/pdf/{nid}.pdf",
                   "venue": f"{v} {p['year']} poster" if p["i"] % 4 else f"Submitted to {v} {p['year']}",
                   "venueid": f"{v}.cc/{p['year']}/Conference", "TL;DR": "A short summary."}
        if p["i"] == 6:
            del content["abstract"]
        ms = 1663000000000 + p["i"] * 86400000
        if version == 1:
            notes.append({"id": nid, "original": None, "number": 100 + p["i"], "cdate": ms, "mdate": ms, "tcdate": ms,
                          "tmdate": ms, "ddate": None, "forum": nid, "replyto": None,
                          "invitation": f"{v}.cc/{p['year']}/Conference/-/Blind_Submission",
                          "signatures": [f"{v}.cc/{p['year']}/Conference"], "readers": ["everyone"],
                          "nonreaders": [], "writers": [f"{v}.cc/{p['year']}/Conference"], "content": content})
        else:
            notes.append({"id": nid, "forum": nid, "number": 100 + p["i"], "cdate": ms, "pdate": ms, "mdate": ms,
                          "invitations": [f"{v}.cc/{p['year']}/Conference/-/Submission"], "domain": f"{v}.cc/{p['year']}/Conference",
                          "readers": ["everyone"], "writers": [f"{v}.cc/{p['year']}/Conference"],
                          "signatures": [f"{v}.cc/{p['year']}/Conference/Submission{100 + p['i']}/Authors"],
                          "content": {k: {"value": val} for k, val in content.items()}})
    if version == 1:
        return json.dumps({"notes": notes, "count": len(notes)}, indent=1, ensure_ascii=False) + "\n"
    lines = [json.dumps(n, ensure_ascii=False) for n in notes]
    lines.insert(10, '{"id": "broken", "content": {"title": {"value": "A note cut short"')
    return "\n".join(lines) + "\n"


def arxiv():
    lines = []
    for p in papers:
        if not p["arxiv"]:
            continue
        lines.append(json.dumps({"id": p["arxiv"], "submitter": p["authors"][0][0], "authors": ", ".join(f"{f} {l}" for f, l in p["authors"]),
                                 "title": p["title"], "comments": "12 pages", "journal-ref": None, "doi": None,
                                 "report-no": None, "categories": "cs.LG", "license": None,
                                 "abstract": "  " + p["abstract"] + "\n", "versions": [{"version": "v1", "created": "Mon, 1 Jul 2019 00:00:00 GMT"}],
                                 "update_date": f"{p['year']}-07-02", "authors_parsed": [[l, f, ""] for f, l in p["authors"]]},
                                ensure_ascii=False))
    return "\n".join(lines) + "\n"


(OUT / "library.bib").write_text(bibtex())
(OUT / "library.ris").write_text(ris())
(OUT / "library-csl.json").write_text(csl())
(OUT / "openalex-works.jsonl").write_text(openalex())
(OUT / "semantic-scholar.json").write_text(semantic_scholar())
(OUT / "openreview-v1.json").write_text(openreview(1))
(OUT / "openreview-v2.jsonl").write_text(openreview(2))
(OUT / "arxiv.jsonl").write_text(arxiv())
