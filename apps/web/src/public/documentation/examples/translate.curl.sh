curl -N -X POST http://localhost:8080/api/translate/ \
  -H "Content-Type: application/json" \
  -H "X-API-Key: YOUR_API_KEY" \
  -d '{
    "text": "Allinllachu kashanki?",
    "model_id": "YOUR_MODEL_ID",
    "src_lang": "quechua",
    "tgt_lang": "spanish",
    "stream": true
  }'
