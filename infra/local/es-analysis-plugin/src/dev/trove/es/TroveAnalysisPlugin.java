package dev.trove.es;

import java.util.Map;
import java.util.function.Supplier;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.cjk.CJKAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.ru.RussianAnalyzer;
import org.elasticsearch.index.analysis.AbstractIndexAnalyzerProvider;
import org.elasticsearch.index.analysis.AnalyzerProvider;
import org.elasticsearch.indices.analysis.AnalysisModule.AnalysisProvider;
import org.elasticsearch.plugins.AnalysisPlugin;
import org.elasticsearch.plugins.Plugin;

/**
 * The integ-test distribution of Elasticsearch ships without the analysis-common module, so the
 * language analyzers a full distribution has built in are missing. This plugin registers Lucene's
 * own English, Russian and CJK analyzers (already on the server's class path) under the same
 * names, so one index mapping works on both distributions.
 */
public class TroveAnalysisPlugin extends Plugin implements AnalysisPlugin {
    @Override
    public Map<String, AnalysisProvider<AnalyzerProvider<? extends Analyzer>>> getAnalyzers() {
        return Map.of(
            "english", provider(EnglishAnalyzer::new),
            "russian", provider(RussianAnalyzer::new),
            "cjk", provider(CJKAnalyzer::new)
        );
    }

    private static AnalysisProvider<AnalyzerProvider<? extends Analyzer>> provider(Supplier<Analyzer> factory) {
        return (indexSettings, environment, name, settings) -> {
            Analyzer analyzer = factory.get();
            return new AbstractIndexAnalyzerProvider<Analyzer>(name, settings) {
                @Override
                public Analyzer get() {
                    return analyzer;
                }
            };
        };
    }
}
