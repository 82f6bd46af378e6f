"""c28second's blind labels of all 38 c28 threads against truth.jsonl, field by field (README.md, "The twenty-eighth
collection (c28second)"): compare_twelfth.py's two readings (judged by JUDGED and MATCHES, compare_eleventh.py's method;
scored by bot/importer/scoring.py's rule with the second label's phrases as the stored text), on the threads
drawn-twentyeighth-conversations-second.tsv records (bench/held_out.tsv's c28 block at 03a9393d), then fold B's alone.

    .venv/bin/python eval/second-annotation/compare_twentyeighth_conversations_second.py
"""

from compare_twelfth import run
from compare_twentyseventh_second import fold_b
from sample_twentyseventh_second import recorded

LABELS = "twentyeighth-conversations-second.jsonl"
TSV = "drawn-twentyeighth-conversations-second.tsv"
# Every thread's stratum was seen: c28 holds only threads where a step did not help, and its file names tell the step.
STRATUM_SEEN = tuple(file for _corpus, file, _fold, _commit in recorded(TSV))
# (file prefix, field) -> agree?  Only pairs whose phrases differ; the reason is in README.md.
JUDGED: dict[tuple[str, str], bool] = {
    ("vechain-thor-sync.electron-419", "root_cause_keywords"): True,  # second without "some"
    ("springlobby-springlobby-1009", "root_cause_keywords"): False,  # [] / "blame google for it"
    ("cityofzion-neon-wallet-319", "root_cause_keywords"): False,  # [] / "neon wallet api is currently down"
    ("teamvanced-vancedmanager-388", "root_cause_keywords"): True,  # the download rush, second adds "server went down"
    ("phpdocumentor-phpdocumentor-1885", "root_cause_keywords"): True,  # second without "i have"
    ("leather-io-extension-1417", "root_cause_keywords"): False,  # [] / "the underlying api experienced some problems"
    ("olympusdao-olympus-frontend-1637", "root_cause_keywords"): False,  # [] / the node provider (hedged)
    ("bitpay-wallet-6903", "root_cause_keywords"): False,  # [] / "probably an error with the api"
    ("bitpay-wallet-6946", "root_cause_keywords"): False,  # [] / "apis are down"
    ("bitpay-wallet-6946", "found_keywords"): False,  # [] / the pingdom page a participant cited
    ("darkwallet-darkwallet-121", "root_cause_keywords"): False,  # [] / "the server is down"
    ("mutinywallet-mutiny-web-992", "root_cause_keywords"): True,  # second without "our lsp has been having some"
    ("mutinywallet-mutiny-web-1009", "root_cause_keywords"): False,  # [] / "a lot of disconnections with the lsp"
    ("mutinywallet-mutiny-web-1009", "fix_keywords"): True,  # second without "issue"
    ("metamask-faq-84", "root_cause_keywords"): True,  # second without "we just"
    ("metamask-faq-84", "fix_keywords"): False,  # [] (a plan) / "scale up our backends"
    ("anetheronwow-anetheron-43", "root_cause_keywords"): False,  # [] / "server offline"
    ("conflux-chain-conflux-rust-2433", "root_cause_keywords"): False,  # the reporter's question / []
    ("conflux-chain-conflux-rust-2433", "found_keywords"): False,  # [] / ConfluxScan's stalled block
    ("crypto-com-chain-desktop-wallet-1374", "root_cause_keywords"): True,  # second without "applied a"
    ("oipwg-oip-hdmw-8", "found_keywords"): False,  # [] / "snapshot of the network tab"
}
# (truth phrase, second phrase): the same step.
MATCHES: list[tuple[str, str]] = [
    ("please try again", "please try again"),
    ("i have submitted my address to", "i have submitted my address to"),
    ("keep requesting", "keep requesting"),
    ("checking with another public rpc endpoint", "try checking with another public rpc endpoint"),
    ("i retried multiple times", "i retried multiple times"),
    ("through the upload page", "through the upload page"),
    ("clearing cookies", "clearing cookies"),
    ("reinstalling the vpn", "reinstalling the vpn"),
    ("clear your cache/cookies for the site", "clear your cache/cookies for the site"),
    ("turning off content blockers", "turning off content blockers"),
    ("i also tried it in light mode", "i also tried it in light mode"),
    ("re-upload the sphinx based documentation", "i made an attempt to re-upload the sphinx based documentation"),
    ("requesting for token through every way listed", "through every way listed"),
    ("i have claimed on discord and other methods several times", "claimed on discord and other methods several times"),
    ("i uninstalled and reinstalled the 2 networks", "uninstalled and reinstalled the 2 networks"),
    ("i've tried different browsers too", "i've tried different browsers"),
    ("i tried resetting my password", "i tried resetting my password"),
    ("i tried to reset the password", "i tried to reset the password"),
    ("can't validate after 30 tries", "after 30 tries"),
    ("tried to remake the account", "tried to remake the account"),
    ("i checked for an update, and updated to 0.0.7", "updated to 0.0.7"),
    ("i have try many times", "i have try many times"),
    ("i updated manualy to 0.1.8 (b145)", "i updated manualy to 0.1.8"),
    ("i tried to log in on the main page as well", "i tried to log in on the main page as well"),
    ("even after updating to 2.3.0", "even after updating to 2.3.0"),
    ("spent another day trying (and failing) to install this software", "trying (and failing) to install this software"),
    ("our rollback failed", "our rollback failed"),
    ("i also tried faucet website", "i also tried faucet website"),
    ("switching network", "switching network does nothing to resolve it"),
    ("standard troubleshooting like clearing cache etc", "clearing cache"),
    ("i restarted the indexer", "i restarted the indexer"),
    ("i ever tried deleting the app and getting back in", "i ever tried deleting the app and getting back in"),
    ("i've also tried scanning my wallet for funds from the settings tab", "i've also tried scanning my wallet for funds"),
    ("i upgraded all the darkwallet files", "i upgraded all the darkwallet files"),
    ("delete storage and restart", "delete storage and restart"),
    ("he has increased the fee from 1000 ppm (standard) to 4000", "he has increased the fee"),
    ("i have tried restarting the wallet", "i have tried restarting the wallet"),
    ("upped the gas fee", "topping up with eth"),
    ("second time around", "second time around"),
    ("i tried to withdrawal several times", "i tried to withdrawal several times"),
    ("already tried deleting wtf file", "already tried deleting wtf file"),
    ("i rebooted my node", "i rebooted my node"),
    ("even after numerous refreshes", "even after numerous refreshes"),
    ("even after clearing data and restoring wallet", "even after clearing data and restoring wallet"),
    ("different browsers", "different browsers"),
    ("switching lightwalletd servers", "switching lightwalletd servers"),
    ("trying fr", "the error i get when trying fr"),
    ("switch between different nodes", "i tried to switch between different nodes"),
    ("tried at different laptops", "tried at different laptops"),
]


if __name__ == "__main__":
    run(recorded(TSV), LABELS, JUDGED, MATCHES, STRATUM_SEEN)
    fold_b(TSV, LABELS, JUDGED, MATCHES)
