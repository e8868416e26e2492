# One translation per line of a text file (a progress bar on stderr for long inputs)
npx gaia-translate --url http://localhost:8080 --key YOUR_API_KEY --agent YOUR_MODEL_ID < phrases.txt > phrases.es.txt

# A TMX, XLIFF, CSV/TSV (--column) or TXT file, translated into the same format
npx gaia-translate --url http://localhost:8080 --key YOUR_API_KEY --agent YOUR_MODEL_ID --file memory.tmx --out memory.es.tmx
