"""b_eff: b(L) per message size of the natural ring (and the reference
ring) with the ring's Hockney model b(L) stored beside it in /beff/sizes
(model_b_Bps), the random rings in grey; /beff/summary as the table."""
import numpy as np

from .common import Section, Table, check_units, fixed, has_columns, read_table, save, text


DRAWS = {"beff/sizes": "b_eff per message size"}  # with beff/summary
ORDER = 40


def sections(f, options):
    sizes = read_table(f, "beff/sizes")
    summary = read_table(f, "beff/summary")
    if sizes is None or len(sizes) == 0 or not has_columns(sizes, "ring", "ring_kind", "message_bytes", "b_Bps"):
        return []
    import matplotlib.pyplot as plt
    check_units(f, "beff/sizes", {"message_bytes": "B", "b_Bps": "B/s", "model_b_Bps": "B/s"})

    fig, ax = plt.subplots(figsize=(8, 4.8))
    for ring in sorted(set(int(r) for r in sizes["ring"])):
        rows = np.sort(sizes[sizes["ring"] == ring], order="message_bytes")
        kind = text(rows[0]["ring_kind"])
        n = int(rows[0]["ranks"])
        if kind == "random":
            ax.plot(rows["message_bytes"], rows["b_Bps"] / 1e9, "-", color="0.7", linewidth=0.8,
                    label="random rings" if ring == 1 else None)
            continue
        line, = ax.plot(rows["message_bytes"], rows["b_Bps"] / 1e9, "o", label=f"{kind} ring, {n} ranks: measured")
        if "model_b_Bps" in rows.dtype.names and np.isfinite(rows["model_b_Bps"]).any():
            ax.plot(rows["message_bytes"], rows["model_b_Bps"] / 1e9, "-", color=line.get_color(),
                    label=f"{kind} ring: Hockney model")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("message size L (bytes)")
    ax.set_ylabel("b(L), all ranks (GB/s)")
    ax.set_title("b_eff ring: bandwidth per message size")
    ax.legend(fontsize=8)
    fig.tight_layout()
    png = save(fig, options, "beff_sizes.png")

    tables = []
    if summary is not None:
        rows = []
        for r in summary:
            rows.append([int(r["ring"]), text(r["ring_kind"]), int(r["ranks"]), f"{r['b_eff_Bps']:.4g}",
                         f"{r['b_eff_per_rank_Bps']:.4g}", fixed(r["latency_8B_seconds"] * 1e6, 2),
                         fixed(r["hockney_alpha_seconds"] * 1e6, 2), fixed(r["hockney_beta_Bps"] / 1e9, 3),
                         fixed(r["efficiency"], 3), "yes" if r["valid"] else "NO"])
        tables.append(Table("/beff/summary", ["ring", "kind", "ranks", "b_eff B/s", "per rank B/s", "latency us",
                                              "Hockney alpha us", "beta GB/s", "E(n)", "valid"], rows))
    return [Section(title="b_eff per message size", png=png, tables=tables)]
