// Second wave (misc): accounting and payments, media, smart home, speech, small utilities, markets, travel, reference.
const { s, i, n, b, e, a, o, T, OAI, ANT, schema } = require('./h.cjs');
const out = [];
const money = (what) => o({ value: s('Decimal amount as a string, e.g. "19.99".'), currency_code: s('ISO 4217 code.') }, ['value', 'currency_code'], what);

// ---------------- quickbooks ----------------
out.push(
T('quickbooks', 'create_invoice', 'Create a QuickBooks Online invoice for a customer and optionally email it.',
  { customer_id: s('Customer reference id.'),
    lines: a(o({ item_id: s('Product or service id.'), description: s('Line text.'), quantity: n('Quantity.'), unit_price: n('Price per unit.'), tax_code: s('Tax code, e.g. "TAX" or "NON".') }, ['item_id', 'quantity']), 'Line items.', { minItems: 1 }),
    due_date: s('Payment due date.', { format: 'date' }), terms: s('Payment terms such as "Net 30".'), email_to_customer: b('Send it right away.', false) },
  ['customer_id', 'lines']),
T('quickbooks', 'receive_payment', 'Record money received from a customer and apply it to open invoices.',
  { customer_id: s('Customer.'), total_amount: n('Amount received.'), payment_date: s('Date.', { format: 'date' }), payment_method: e(['cash', 'check', 'credit_card', 'bank_transfer']),
    applied_to: a(o({ invoice_id: s('Invoice.'), amount: n('Part of the payment applied to it.') }, ['invoice_id', 'amount'])) },
  ['customer_id', 'total_amount']),
T('quickbooks', 'create_bill', 'Enter a bill from a vendor (accounts payable) to pay later.',
  { vendor_id: s('Vendor.'), lines: a(o({ account_id: s('Expense account.'), amount: n('Amount.'), description: s('What it was for.') }, ['account_id', 'amount'])), due_date: s('Due date.', { format: 'date' }) },
  ['vendor_id', 'lines']),
T('quickbooks', 'profit_and_loss_report', 'Income, expenses and net profit for a period.',
  { start_date: s('From.', { format: 'date' }), end_date: s('To.', { format: 'date' }), accounting_method: e(['Accrual', 'Cash'], 'Basis.', 'Accrual'), summarize_by: e(['Total', 'Month', 'Quarter', 'Customers'], 'Columns.', 'Total') },
  ['start_date', 'end_date']),
);

// ---------------- paypal ----------------
out.push(
T('paypal', 'create_order', 'Create a PayPal checkout order and return the approval link the buyer must open.',
  { intent: e(['CAPTURE', 'AUTHORIZE'], 'Capture immediately after approval, or only authorize.', 'CAPTURE'),
    purchase_units: a(o({ amount: money('Total for this unit.'), description: s('What is being bought.'), reference_id: s('Your own order reference.') }, ['amount']), 'What the buyer pays for.', { minItems: 1 }),
    return_url: s('Where the buyer lands after approving.'), cancel_url: s('Where the buyer lands after cancelling.') },
  ['purchase_units']),
T('paypal', 'refund_capture', 'Refund a captured PayPal payment, fully or partly.',
  { capture_id: s('Capture id.'), amount: money('Partial amount; the full capture when omitted.'), note_to_payer: s('Reason shown to the buyer.') }, ['capture_id']),
T('paypal', 'create_payout', 'Send money to many recipients in one batch, e.g. affiliate commissions or seller earnings.',
  { sender_batch_id: s('Your id for the batch; reusing one is rejected, which prevents double payment.'), email_subject: s('Subject of the notification email.'),
    items: a(o({ recipient_type: e(['EMAIL', 'PHONE', 'PAYPAL_ID'], 'How the receiver is identified.'), receiver: s('Email, phone or PayPal id of the person being paid.'), amount: money('Amount for this person.'), note: s('Note to the recipient.') }, ['receiver', 'amount']), 'Payments.', { maxItems: 15000 }) },
  ['sender_batch_id', 'items']),
);

// ---------------- youtube ----------------
out.push(
T('youtube', 'search_videos', 'Search YouTube videos.',
  { query: s('Search words.'), max_results: i('Results.', { default: 10, maximum: 50 }), order: e(['relevance', 'date', 'viewCount', 'rating'], 'Ordering.', 'relevance'),
    published_after: s('RFC 3339 time.'), duration: e(['any', 'short', 'medium', 'long'], 'short is under 4 minutes, long over 20.', 'any'), channel_id: s('Only this channel.') },
  ['query']),
T('youtube', 'get_transcript', 'Fetch the captions of a video as text.', { video_id: s('Video id or URL.'), language: s('Caption language, e.g. "en".'), include_timestamps: b('Prefix each line with its time offset.', false) }, ['video_id']),
T('youtube', 'get_video_details', 'Title, channel, description, duration, views, likes and comment count of a video.', { video_id: s('Video id or URL.') }, ['video_id']),
);

// ---------------- spotify ----------------
out.push(
T('spotify', 'search', 'Search the Spotify catalog for tracks, albums, artists, playlists or podcasts.',
  { q: s('Query; supports artist:, album:, year: filters.'), type: a(e(['track', 'album', 'artist', 'playlist', 'show', 'episode']), 'Item types.'), market: s('ISO country code.'), limit: i('Results per type.', { default: 10 }) }, ['q', 'type']),
T('spotify', 'start_playback', 'Start or resume playing on the user\'s active device.',
  { device_id: s('Speaker, phone or computer to play on.'), context_uri: s('Album, artist or playlist URI.'), uris: a(s('Track URI.')), position_ms: i('Start position within the first track.'), shuffle: b('Turn shuffle on.') }),
T('spotify', 'add_to_playlist', 'Add tracks to a playlist.', { playlist_id: s('Playlist.'), uris: a(s('Track or episode URI.'), 'Items to add.', { maxItems: 100 }), position: i('Insert position; appended when omitted.') }, ['playlist_id', 'uris']),
);

// ---------------- home assistant ----------------
out.push(
T('homeassistant', 'call_service', 'Call a service on an entity.',
  { domain: s('Integration domain, e.g. "light", "climate", "cover", "lock".'), service: s('Service, e.g. "turn_on", "set_temperature", "open_cover".'), entity_id: s('Target entity, e.g. "light.living_room".'),
    brightness_pct: i('0–100.', { minimum: 0, maximum: 100 }), color_temp_kelvin: i('White temperature.'), rgb_color: a(i('Channel 0–255.'), null, { minItems: 3, maxItems: 3 }),
    temperature: n('Target temperature.'), hvac_mode: e(['off', 'heat', 'cool', 'auto', 'dry', 'fan_only']), position: i('Cover position 0–100.') },
  ['domain', 'service']),
T('homeassistant', 'get_state', 'Current state and attributes of an entity.', { entity_id: s('Entity id, e.g. "sensor.outdoor_humidity".') }, ['entity_id']),
T('homeassistant', 'list_entities', 'Entities known to Home Assistant, optionally for one domain or area.', { domain: s('e.g. "light".'), area: s('Area name, e.g. "Kitchen".') }),
);

// ---------------- speech ----------------
out.push(
T('speech', 'transcribe', 'Turn recorded audio into text.',
  { audio: s('URL or local path of the recording.'), language: s('BCP-47 code; detected when omitted.'), diarization: b('Label which speaker said each segment.', false), max_speakers: i('Upper bound for diarization.'),
    word_timestamps: b('Include a start and end time for every word.', false), vocabulary: a(s('Phrase.'), 'Names and jargon to bias recognition towards.') },
  ['audio']),
T('speech', 'synthesize', 'Generate spoken audio from text.',
  { text: s('Text, or SSML when `ssml` is true.'), ssml: b('Treat text as SSML.', false), voice: s('Voice name, e.g. "en-GB-female-2".'), speaking_rate: n('0.25–4.0, 1 is normal.', { default: 1 }),
    audio_format: e(['mp3', 'wav', 'ogg_opus'], 'Output encoding.', 'mp3'), save_to: s('Output file path.') },
  ['text']),
);

// ---------------- small utilities (mixed shapes) ----------------
out.push(
{ name: 'calculator__evaluate', description: 'Evaluate an expression.', inputSchema: schema({ expression: s('e.g. "(17.5 * 3) / 4 + sqrt(2)".'), precision: i('Decimal places.', { default: 10 }) }, ['expression']) },
OAI('units', 'convert', 'Convert a quantity.', { value: n('Number to convert.'), from_unit: s('e.g. "mi", "lb", "degF", "cup".'), to_unit: s('e.g. "km", "kg", "degC", "ml".') }, ['value', 'from_unit', 'to_unit'], { strict: true }),
T('qrcode', 'generate', 'Encode text or a link as an image.',
  { data: s('Content to encode.'), error_correction: e(['L', 'M', 'Q', 'H'], 'Higher levels survive more damage.', 'M'), size_px: i('Edge length.', { default: 512 }), format: e(['png', 'svg'], null, 'png') },
  ['data']),
T('url_shortener', 'shorten', 'Create a short link that redirects to a long URL, with an optional custom slug and click tracking.',
  { long_url: s('Destination.'), slug: s('Custom back-half.'), expires_at: s('After this the link stops redirecting.', { format: 'date-time' }) }, ['long_url']),
);

// ---------------- market data ----------------
out.push(
T('market_data', 'get_quote', 'Latest price, change and volume for a stock, ETF or index ticker.', { symbol: s('Ticker such as "AAPL" or "^GSPC".'), exchange: s('Exchange code when the ticker is ambiguous.') }, ['symbol']),
T('market_data', 'get_price_history', 'Historical OHLC candles for a ticker.',
  { symbol: s('Ticker.'), interval: e(['1m', '5m', '1h', '1d', '1wk', '1mo'], 'Candle size.', '1d'), start: s('From.', { format: 'date' }), end: s('To.', { format: 'date' }), adjusted: b('Adjust for splits and dividends.', true) },
  ['symbol']),
T('market_data', 'get_crypto_price', 'Spot price of a cryptocurrency in a fiat or crypto quote currency.', { base: s('e.g. "BTC".'), quote: s('e.g. "EUR".', { default: 'USD' }) }, ['base']),
);

// ---------------- translation of whole documents ----------------
out.push(
T('deepl', 'translate_document', 'Translate an entire file (DOCX, PPTX, PDF, HTML) and keep its layout.',
  { path: s('Input file.'), target_lang: s('Target language code, e.g. "DE", "JA", "ZH".'), source_lang: s('Source language; detected when omitted.'), formality: e(['default', 'more', 'less']), output_path: s('Where to save the translated file.') },
  ['path', 'target_lang']),
);

// ---------------- flights ----------------
out.push(
T('flights', 'search_flights', 'Search flight offers between two airports.',
  { origin: s('IATA airport or city code.'), destination: s('IATA code.'), departure_date: s('Date.', { format: 'date' }), return_date: s('Leave out for one-way.', { format: 'date' }),
    passengers: o({ adults: i('Age 12+.', { default: 1 }), children: i('Age 2–11.', { default: 0 }), infants: i('Under 2, on a lap.', { default: 0 }) }, null, 'Who is travelling.'),
    cabin_class: e(['economy', 'premium_economy', 'business', 'first'], 'Cabin.', 'economy'), max_stops: i('0 for nonstop only.'), max_price: n('Upper price bound in the currency below.'), currency: s('ISO 4217.', { default: 'USD' }) },
  ['origin', 'destination', 'departure_date']),
T('flights', 'get_flight_status', 'Live status of a flight: departure and arrival times, delay, gate and terminal.', { flight_number: s('Carrier code and number, e.g. "LH 454".'), date: s('Scheduled departure date.', { format: 'date' }) }, ['flight_number']),
);

// ---------------- reference ----------------
out.push(
T('wikipedia', 'search', 'Search Wikipedia article titles and text.', { query: s('Words.'), language: s('Wiki language edition, e.g. "en", "de", "ja".', { default: 'en' }), limit: i('Results.', { default: 5 }) }, ['query']),
T('wikipedia', 'get_article', 'Get the plain-text summary or full text of a Wikipedia article.', { title: s('Article title.'), language: s('Edition.', { default: 'en' }), full: b('Whole article instead of the lead section.', false) }, ['title']),
T('rss', 'read_feed', 'Fetch an RSS or Atom feed and return its latest entries.', { url: s('Feed URL.'), limit: i('Entries.', { default: 20 }), since: s('Only entries newer than this.') }, ['url']),
);

module.exports = out;
